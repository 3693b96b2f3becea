package main

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 33: third-party clients that never ask for target auto-attach keep
// working on the same client object across kill -9 of the browser. Before
// the fix, the relay's recovery gave each of them an auto-attach with
// waitForDebuggerOnStart, so every page of the relaunched browser was held
// for a debugger they never resume.

// clientKills is how many times each test kills the browser.
const clientKills = 3

// clientTimeout bounds one client's whole run.
const clientTimeout = 90 * time.Second

// TestChromedpSurvivesBrowserKills: one chromedp browser context (a remote
// allocator on the browser websocket) opens a new tab after each kill.
func TestChromedpSurvivesBrowserKills(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	client := actortest.StartLineProgram(t, clientTimeout, "chromedp_survive", s.endpoint, localPage(t), fmt.Sprint(clientKills))
	killCycles(t, client, clientKills, s.theBrowser(t))
}

// TestRodSurvivesBrowserKills: one go-rod Browser opens a page with MustPage
// after each kill.
func TestRodSurvivesBrowserKills(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	client := actortest.StartLineProgram(t, clientTimeout, "rod_survive", s.endpoint, localPage(t), fmt.Sprint(clientKills))
	killCycles(t, client, clientKills, s.theBrowser(t))
}

// localPage serves, on loopback, a page whose one <p> shows its query's
// text; it returns the page's base URL.
func localPage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>page</title><p>%s</p>", html.EscapeString(r.URL.Query().Get("text")))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// theBrowser returns killCycles' finder of the one browser serve runs.
func (s *served) theBrowser(t *testing.T) func() int {
	return func() int {
		browsers := s.browsers()
		if len(browsers) != 1 {
			t.Fatalf("browsers %v, want one", browsers)
		}
		return browsers[0]
	}
}

// TestChromeRemoteInterfaceSurvivesBrowserKills: one chrome-remote-interface
// client on the browser websocket makes, attaches to and navigates a page
// of its own after each kill.
func TestChromeRemoteInterfaceSurvivesBrowserKills(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, clientTimeout, "cri_survive.mjs", s.endpoint, localPage(t), fmt.Sprint(clientKills))
	killCycles(t, client, clientKills, s.theBrowser(t))
}

// TestSeleniumSurvivesBrowserKills: one selenium-webdriver session, through
// Debian's chromedriver attached to the endpoint (debuggerAddress), opens a
// new tab after each kill.
func TestSeleniumSurvivesBrowserKills(t *testing.T) {
	chromedriver := actortest.Chromedriver(t)
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, clientTimeout, "selenium_survive.mjs", s.endpoint, localPage(t), fmt.Sprint(clientKills), chromedriver)
	drivers := trackChromedrivers(t, client)
	browser := s.theBrowser(t)
	killCycles(t, client, clientKills, func() int {
		drivers.record()
		return browser()
	})
	drivers.gone(t)
}

// TestPuppeteerBesideRawClientSurvivesBrowserKills: one Puppeteer Browser
// makes and navigates a page after each kill while a raw CDP client, which
// never asks for auto-attach, uses the same relaunched browser beside it.
func TestPuppeteerBesideRawClientSurvivesBrowserKills(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, clientTimeout, "puppeteer_beside_raw.mjs", s.endpoint, localPage(t), fmt.Sprint(clientKills))
	killCycles(t, client, clientKills, s.theBrowser(t))
}

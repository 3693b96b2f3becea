package main

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// worldView is what a client saw of its world (worlds_ports.mjs).
type worldView struct {
	Pages, List, Cookies []string
}

// markers are the m= markers of the site's URLs among urls.
func markers(urls []string) []string {
	var out []string
	for _, u := range urls {
		if p, err := url.Parse(u); err == nil && p.Query().Has("m") {
			out = append(out, p.Query().Get("m"))
		}
	}
	slices.Sort(out)
	return out
}

// worldsPorts runs worlds_ports.mjs and answers each client's view.
func worldsPorts(t *testing.T, out string, err error) map[string]worldView {
	t.Helper()
	var res struct {
		OK    bool
		Views map[string]worldView
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || !res.OK {
		t.Fatalf("worlds_ports.mjs: %v: %q", err, out)
	}
	return res.Views
}

// Issue 34: clients that keep only a host and a port reach a world by its
// own port and see only the world, while another world and a client of
// the whole browser have pages of their own on the same browser:
// Puppeteer's connect({browserURL}), go-rod's launcher.ResolveURL
// ("127.0.0.1:WPORT"), chromedriver's debuggerAddress, and a child given
// --port={cdp_port} under wrap --isolate.
func TestWorldPortsWithRealClients(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	chromedriver := actortest.Chromedriver(t)
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", chromium, "--state-dir", dir)
	site := localPage(t)
	alice, bob := worldOpen(t, dir, "alice"), worldOpen(t, dir, "bob")

	// Puppeteer, browserURL: each sees its own page, list entry and cookie.
	out, err := actortest.NodeScript(t, 2*time.Minute, "worlds_ports.mjs", site, "alice="+alice, "bob="+bob, "--whole="+s.endpoint)
	views := worldsPorts(t, out, err)
	for _, w := range []string{"alice", "bob"} {
		v := views[w]
		if got := markers(v.Pages); !slices.Equal(got, []string{w}) {
			t.Errorf("%s's Puppeteer sees pages %v (%v), want its own alone", w, got, v.Pages)
		}
		if got := markers(v.List); !slices.Equal(got, []string{w}) {
			t.Errorf("%s's /json/list on its port: %v, want its own alone", w, got)
		}
		if !slices.Equal(v.Cookies, []string{"m=" + w}) {
			t.Errorf("%s's cookies: %v, want m=%s alone", w, v.Cookies, w)
		}
	}
	if got := markers(views["whole"].Pages); !slices.Equal(got, []string{"alice", "bob", "whole"}) {
		t.Errorf("the whole browser's client sees pages %v, want every world's and its own", got)
	}
	if !slices.Equal(views["whole"].Cookies, []string{"m=whole"}) {
		t.Errorf("the whole browser's default context has cookies %v, want its own alone", views["whole"].Cookies)
	}

	// go-rod, launcher.ResolveURL("127.0.0.1:WPORT"): its page is alice's.
	rod := actortest.StartLineProgram(t, time.Minute, "rod_connect", strings.TrimPrefix(alice, "http://"), site+"/?m=rod-alice&text=rod")
	text, ok := rod.Next()
	if err := rod.Wait(); err != nil || !ok || !strings.Contains(text, "rod") {
		t.Fatalf("rod_connect to alice's port: %v (printed %q)", err, text)
	}
	var aliceList, bobList []struct{ URL string }
	getJSON(t, alice+"/json/list", &aliceList)
	getJSON(t, bob+"/json/list", &bobList)
	listed := func(l []struct{ URL string }) (urls []string) {
		for _, e := range l {
			urls = append(urls, e.URL)
		}
		return urls
	}
	if got := markers(listed(aliceList)); !slices.Equal(got, []string{"alice", "rod-alice"}) {
		t.Errorf("alice's pages after go-rod: %v", got)
	}

	// chromedriver, debuggerAddress 127.0.0.1:WPORT: its window handles
	// are bob's tabs alone.
	out, err = actortest.NodeScript(t, 2*time.Minute, "selenium_world.mjs", strings.TrimPrefix(bob, "http://"), site+"/?m=sel-bob", chromedriver)
	var sel struct {
		OK      bool
		Handles int
		URLs    []string
	}
	if err != nil || json.Unmarshal([]byte(out), &sel) != nil || !sel.OK {
		t.Fatalf("selenium_world.mjs: %v: %q", err, out)
	}
	if got := markers(sel.URLs); sel.Handles != 2 || !slices.Equal(got, []string{"bob", "sel-bob"}) {
		t.Errorf("chromedriver in bob's world holds %d handles %v, want bob's 2 tabs", sel.Handles, sel.URLs)
	}
	if got := markers(listed(bobList)); !slices.Equal(got, []string{"bob"}) {
		t.Errorf("bob's pages before chromedriver: %v", got)
	}

	// A child given --port={cdp_port} under wrap --isolate reaches its own
	// world, not the whole browser.
	script := actortest.ClientsDir(t) + "/worlds_ports.mjs"
	out, stderr, code := runWrapCLI(t, "--state-dir", dir, "--isolate", "--", "node", script, site, "--port={cdp_port}")
	if code != 0 {
		t.Fatalf("wrap --isolate -- node worlds_ports.mjs --port={cdp_port}: exit %d %q\n%s", code, out, stderr)
	}
	port := worldsPorts(t, out, nil)["port"]
	if got := markers(port.Pages); !slices.Equal(got, []string{"port"}) || !slices.Equal(markers(port.List), []string{"port"}) ||
		!slices.Equal(port.Cookies, []string{"m=port"}) {
		t.Errorf("the --port={cdp_port} child sees %+v, want its own world alone", port)
	}
	if strings.Contains(stderr, "WRN") {
		t.Errorf("wrap warned about {cdp_port}: %s", stderr)
	}
}

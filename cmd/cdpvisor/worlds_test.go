package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Puppeteer and Playwright, each in a world of its own on one Chromium:
// pages, lists and cookies walled, another world's target unknown, a
// reconnect finds its page; across a kill -9 both go on with their cookies
// back; one world's Browser.close leaves the other world and the browser.
func TestWorldsWallRealClientsOnOneBrowser(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, 2*time.Minute, "worlds_walled.mjs", s.endpoint)
	var killed, closing int
	for text, ok := client.Next(); ok; text, ok = client.Next() {
		var line struct {
			Ready string
			OK    bool
		}
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("unexpected output %q", text)
		}
		if line.OK {
			break
		}
		browsers := s.browsers()
		if len(browsers) != 1 {
			t.Fatalf("%s: browsers %v, want one", line.Ready, browsers)
		}
		switch line.Ready {
		case "kill":
			killed = browsers[0]
			if err := syscall.Kill(killed, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			waitGone(t, killed)
		case "close":
			closing = browsers[0]
		default:
			t.Fatalf("unexpected output %q", text)
		}
		client.Go()
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	if killed == 0 || closing == 0 || closing == killed {
		t.Fatalf("killed %d, then %d before the Browser.close: want a kill and a new browser", killed, closing)
	}
	if browsers := s.browsers(); len(browsers) != 1 || browsers[0] != closing {
		t.Fatalf("browsers %v after a world's Browser.close, want %d still running", browsers, closing)
	}
}

// The survival scripts pass inside a world as on the whole browser: one
// Browser object survives repeated kill -9, and Puppeteer's pages() and the
// world's /json/list agree after each.
func TestWorldClientsSurviveBrowserKills(t *testing.T) {
	chromium := actortest.Chromium(t)
	const cycles = 15
	for _, script := range []string{"playwright_survive.mjs", "puppeteer_survive.mjs"} {
		t.Run(strings.TrimSuffix(script, ".mjs"), func(t *testing.T) {
			s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
			client := actortest.StartLineScript(t, 4*time.Minute, script, s.endpoint+"/context/agent-1", fmt.Sprint(cycles))
			killCycles(t, client, cycles, func() int {
				browsers := s.browsers()
				if len(browsers) != 1 {
					t.Fatalf("browsers %v, want one", browsers)
				}
				return browsers[0]
			})
		})
	}
}

// chrome-devtools-mcp and @playwright/mcp, each in a world of its own on
// one browser: each works, and each sees its own page only.
func TestWorldsWallMCPServers(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	out, err := actortest.NodeScript(t, 2*time.Minute, "worlds_mcp.mjs", s.endpoint, t.TempDir())
	if err != nil || !strings.Contains(out, `"ok":true`) {
		t.Fatalf("worlds_mcp.mjs: %v\n%s", err, out)
	}
	if browsers := s.browsers(); len(browsers) != 1 {
		t.Fatalf("browsers %v, want the one both worlds share", browsers)
	}
}

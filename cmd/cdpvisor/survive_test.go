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

// A real client's one Browser object survives repeated kill -9 of the
// browser behind the endpoint: no 'disconnected', and new contexts and
// pages work after every kill.
func TestRealClientsSurviveBrowserKills(t *testing.T) {
	chromium := actortest.Chromium(t)
	const cycles = 20
	for _, script := range []string{"playwright_survive.mjs", "puppeteer_survive.mjs"} {
		t.Run(strings.TrimSuffix(script, ".mjs"), func(t *testing.T) {
			s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
			client := actortest.StartLineScript(t, 4*time.Minute, script, s.endpoint, fmt.Sprint(cycles))
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

// killCycles serves a kill-cycle client script (testdata/clients/*_survive.mjs):
// at each {"ready":N} it kills the browser running now, which must be a new
// one each time, and lets the client go on; the final line must count every
// cycle and no 'disconnected'.
func killCycles(t *testing.T, client *actortest.LineScript, cycles int, running func() int) {
	t.Helper()
	killed := map[int]bool{}
	for text, ok := client.Next(); ok; text, ok = client.Next() {
		var line struct {
			Ready        int
			OK           bool
			Cycles       int
			Disconnected bool
		}
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("unexpected output %q", text)
		}
		if line.OK {
			if line.Cycles != cycles || line.Disconnected {
				t.Fatalf("final line %s", text)
			}
			break
		}
		pid := running()
		if killed[pid] {
			t.Fatalf("cycle %d: browser %d again, want a new one", line.Ready, pid)
		}
		killed[pid] = true
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitGone(t, pid)
		client.Go()
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(killed) != cycles {
		t.Fatalf("%d kills, want %d", len(killed), cycles)
	}
}

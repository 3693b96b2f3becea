package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// A real client's one Browser object survives repeated kill -9 of the
// browser behind the endpoint: no 'disconnected', and new contexts and
// pages work after every kill.
func TestRealClientsSurviveBrowserKills(t *testing.T) {
	chromium := chrometest.Chromium(t)
	const cycles = 20
	for _, script := range []string{"playwright_survive.mjs", "puppeteer_survive.mjs"} {
		t.Run(strings.TrimSuffix(script, ".mjs"), func(t *testing.T) {
			s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
			client := chrometest.StartLineScript(t, 4*time.Minute, script, s.endpoint, fmt.Sprint(cycles))
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
				browsers := s.browsers()
				if len(browsers) != 1 || killed[browsers[0]] {
					t.Fatalf("cycle %d: browsers %v, want one new one", line.Ready, browsers)
				}
				killed[browsers[0]] = true
				if err := syscall.Kill(browsers[0], syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				waitGone(t, browsers[0])
				client.Go()
			}
			if err := client.Wait(); err != nil {
				t.Fatalf("%s: %v", script, err)
			}
			if len(killed) != cycles {
				t.Fatalf("%d kills, want %d", len(killed), cycles)
			}
		})
	}
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	dir := chrometest.ClientsDir(t)
	const cycles = 20
	for _, script := range []string{"playwright_survive.mjs", "puppeteer_survive.mjs"} {
		t.Run(strings.TrimSuffix(script, ".mjs"), func(t *testing.T) {
			s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, script), s.endpoint, fmt.Sprint(cycles))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "CLIENT_TIMEOUT_MS=230000")
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			var stderr syncBuffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if t.Failed() {
					t.Logf("%s stderr:\n%s", script, stderr.String())
				}
			}()
			sc := bufio.NewScanner(stdout)
			killed := map[int]bool{}
			for sc.Scan() {
				var line struct {
					Ready        int
					OK           bool
					Cycles       int
					Disconnected bool
				}
				if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
					t.Fatalf("unexpected output %q", sc.Text())
				}
				if line.OK {
					if line.Cycles != cycles || line.Disconnected {
						t.Fatalf("final line %s", sc.Text())
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
				fmt.Fprintln(stdin, "go")
			}
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%s: %v", script, err)
			}
			if len(killed) != cycles {
				t.Fatalf("%d kills, want %d", len(killed), cycles)
			}
		})
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A --user-data-dir naming a Windows profile that a running Windows
// browser already serves: serve attaches to that browser (directly, or
// through the helper under NAT), launches nothing, and leaves it running
// and its profile in place when it stops, by SIGTERM or by kill -9.
func TestWSLServeReusesTheBrowserOnItsProfile(t *testing.T) {
	for _, mode := range natModes {
		for _, end := range []string{"SIGTERM", "kill -9"} {
			t.Run(mode.name+"/"+end, func(t *testing.T) {
				win := fakeWindowsIn(t, mode.env)
				profile := `C:\Users\ann\my profile`
				linuxProfile := filepath.Join(win.Drives, "c", "Users", "ann", "my profile")
				own := win.StartChrome(t, "--user-data-dir="+profile, "--remote-debugging-port=0", "--headless=new")
				waitFile(t, filepath.Join(linuxProfile, "DevToolsActivePort"))
				s := startServe(t, win.Env(), "--windows", "--user-data-dir", profile, "--state-dir", t.TempDir())
				var version struct{ WebSocketDebuggerURL string }
				getJSON(t, s.endpoint+"/json/version", &version)
				cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
				if a := cl.Call(1, "Browser.getVersion", `{}`, ""); a.Error != nil {
					t.Fatalf("Browser.getVersion: %s", a.Raw)
				}
				if r := win.Running(); len(r) != 1 || r[0].WinPid != own {
					t.Fatalf("running: %+v, want only the user's browser %d", r, own)
				}
				if !s.logged("ownership=attached") {
					t.Errorf("serve did not say it attached:\n%s", s.stderr.String())
				}
				_ = cl.Conn.Close()
				if end == "SIGTERM" {
					if err := s.stop(t); err != nil {
						t.Fatalf("serve: %v", err)
					}
				} else {
					_ = s.cmd.Process.Kill()
					<-s.done
					s.done <- nil
				}
				time.Sleep(time.Second) // a watchdog would act within this
				if r := win.Running(); len(r) != 1 || r[0].WinPid != own {
					t.Fatalf("after serve ended: %+v, want the user's browser %d still running\n%s", r, own, s.stderr.String())
				}
				if _, err := os.Stat(filepath.Join(linuxProfile, "DevToolsActivePort")); err != nil {
					t.Errorf("the user's profile was touched: %v", err)
				}
				waitNoHelpers(t, win)
			})
		}
	}
}

// An attached Windows browser that goes away is noticed, mirrored (by
// polling /json/version) and NAT (its websocket through the helper ends):
// the exit is recorded as gone, and no helper is left watching it.
func TestWSLAttachedBrowserGoneIsNoticed(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name, func(t *testing.T) {
			win := fakeWindowsIn(t, mode.env)
			profile := `C:\Users\ann\my profile`
			win.StartChrome(t, "--user-data-dir="+profile, "--remote-debugging-port=0", "--headless=new")
			waitFile(t, filepath.Join(win.Drives, "c", "Users", "ann", "my profile", "DevToolsActivePort"))
			s := startServe(t, win.Env(), "--windows", "--user-data-dir", profile, "--state-dir", t.TempDir())
			var version struct{ WebSocketDebuggerURL string }
			getJSON(t, s.endpoint+"/json/version", &version)
			user := onlyWindowsBrowser(t, win)
			if err := syscall.Kill(user.LinuxPid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			for end := time.Now().Add(10 * time.Second); !strings.Contains(s.stderr.String(), "cause=gone"); time.Sleep(50 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("the attached browser's end was not noticed:\n%s", s.stderr.String())
				}
			}
			waitNoHelpers(t, win)
			if err := s.stop(t); err != nil {
				t.Fatalf("serve: %v", err)
			}
		})
	}
}

package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// WSL's NAT networking, on the fake Windows side (FAKEWIN_NAT=1): the
// browser listens on Windows' loopback only (127.0.0.2 here), so WSL's
// 127.0.0.1 does not reach it; cdpvisor relays its CDP and /json through
// helpers on the Windows side (relay.ps1, http.ps1). The fake browser,
// because Chromium's new headless ignores --remote-debugging-address.
func TestWSLServeNAT(t *testing.T) {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	s := startServe(t, append(win.Env(), "FAKEWIN_NAT=1"), "--windows", "--state-dir", t.TempDir())
	time.Sleep(300 * time.Millisecond)
	if r := win.Running(); len(r) != 0 {
		t.Fatalf("a Windows browser runs before any client: %+v", r)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version) // the lazy launch, and /json through http.ps1
	first := onlyWindowsBrowser(t, win)
	if !strings.HasPrefix(version.WebSocketDebuggerURL, "ws://"+strings.TrimPrefix(s.endpoint, "http://")+"/devtools/browser/") {
		t.Errorf("webSocketDebuggerUrl %s is not the endpoint's", version.WebSocketDebuggerURL)
	}
	port := debugPortOf(t, win)
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", port), time.Second); err == nil {
		c.Close()
		t.Fatalf("the browser's port %s answers on WSL's 127.0.0.1: not the NAT case", port)
	}
	var list []struct{ ID, WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/list", &list)
	if len(list) == 0 || !strings.Contains(list[0].WebSocketDebuggerURL, strings.TrimPrefix(s.endpoint, "http://")) {
		t.Errorf("/json/list through the helper: %+v", list)
	}

	// A Go CDP client through the endpoint, over relay.ps1.
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	if a := cl.Call(1, "Browser.getVersion", `{}`, ""); a.Error != nil {
		t.Fatalf("Browser.getVersion: %s", a.Raw)
	}
	if h := win.Scripts(wsl.ScriptRelay); len(h) == 0 {
		t.Errorf("no relay.ps1 helper runs while a client is connected")
	}

	// kill -9 of the browser: the client stays, its next request relaunches.
	crashWindowsBrowser(t, win, first.LinuxPid)
	if a := cl.Call(2, "Target.createTarget", `{"url":"about:blank"}`, ""); a.Error != nil {
		t.Fatalf("Target.createTarget after kill -9 of the browser: %s", a.Raw)
	}
	second := onlyWindowsBrowser(t, win)
	if second.WinPid == first.WinPid {
		t.Fatalf("no new browser after the crash")
	}

	if err := s.stop(t); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM; stderr:\n%s", err, s.stderr.String())
	}
	nothingLeftOnWindows(t, win)
	waitNoHelpers(t, win)
	if actortest.Alive(second.LinuxPid) {
		t.Errorf("the browser's process %d still runs", second.LinuxPid)
	}
}

// debugPortOf reads the port of the one browser on a temporary profile.
func debugPortOf(t *testing.T, win *actortest.FakeWindows) string {
	t.Helper()
	profiles := win.TempProfiles()
	if len(profiles) != 1 {
		t.Fatalf("temporary profiles %v, want one", profiles)
	}
	data, err := os.ReadFile(filepath.Join(profiles[0], "DevToolsActivePort"))
	if err != nil {
		t.Fatal(err)
	}
	port, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(port)
}

// waitNoHelpers waits until no NAT helper (relay.ps1) runs.
func waitNoHelpers(t *testing.T, win *actortest.FakeWindows) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		h := win.Scripts(wsl.ScriptRelay)
		if len(h) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("NAT helpers (relay.ps1) still run: %v", h)
		}
	}
}

// Real Chromium under NAT networking: the fake Windows side runs it in a
// network namespace of its own (FAKEWIN_NAT=netns, which needs root), so
// its 127.0.0.1 is not cdpvisor's; Puppeteer and Playwright drive it
// through the endpoint and the helpers, across a kill -9 of the browser.
func TestWSLServeNATRealClients(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("FAKEWIN_NAT=netns needs root for its network namespaces; TestWSLServeNAT covers NAT with the fake browser")
	}
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	win := actortest.NewFakeWindows(t, chromium)
	s := startServe(t, append(win.Env(), "FAKEWIN_NAT=netns"), "--windows", "--state-dir", t.TempDir())
	for _, script := range []string{"puppeteer_connect.mjs", "playwright_connect.mjs"} {
		out, err := actortest.NodeScript(t, 60*time.Second, script, s.endpoint)
		if err != nil || !strings.Contains(out, `"result":2`) {
			t.Fatalf("%s: %v: %s\nserve stderr:\n%s", script, err, out, s.stderr.String())
		}
	}
	first := onlyWindowsBrowser(t, win)
	port := debugPortOf(t, win)
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", port), time.Second); err == nil {
		c.Close()
		t.Fatalf("the browser's port %s answers on cdpvisor's 127.0.0.1: not the NAT case", port)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	if err := syscall.Kill(first.LinuxPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	out, err := actortest.NodeScript(t, 60*time.Second, "playwright_connect.mjs", version.WebSocketDebuggerURL)
	if err != nil || !strings.Contains(out, `"result":2`) {
		t.Fatalf("playwright after kill -9 of the Windows browser: %v: %s\nserve stderr:\n%s", err, out, s.stderr.String())
	}
	if second := onlyWindowsBrowser(t, win); second.WinPid == first.WinPid {
		t.Fatalf("no new browser after the crash")
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM", err)
	}
	nothingLeftOnWindows(t, win)
	waitNoHelpers(t, win)
}

// A graceful stop, as on Linux: SIGTERM of serve has the Windows browser
// close itself (CDP Browser.close, through the helper under NAT: exit code
// 0); one that answers nothing is ended by Stop-Process after the grace
// (exit code 1, TerminateProcess's).
func TestWSLGracefulStop(t *testing.T) {
	for _, mode := range natModes {
		for _, c := range []struct {
			name string
			args []string
			code int
		}{
			{"Browser.close", nil, 0},
			{"deaf browser", []string{"--hang-timeout", "0", "--browser-arg=--fake-hang"}, 1},
		} {
			t.Run(mode.name+"/"+c.name, func(t *testing.T) {
				win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
				s := startServe(t, natEnv(win, mode.env), append([]string{"--windows", "--state-dir", t.TempDir()}, c.args...)...)
				var version struct{ WebSocketDebuggerURL string }
				getJSON(t, s.endpoint+"/json/version", &version)
				b := onlyWindowsBrowser(t, win)
				if err := s.stop(t); err != nil {
					t.Fatalf("serve: %v\n%s", err, s.stderr.String())
				}
				nothingLeftOnWindows(t, win)
				if code, ok := win.ExitCode(b.WinPid); !ok || code != c.code {
					t.Errorf("the browser's exit: code %d (exited %v), want %d\n%s", code, ok, c.code, s.stderr.String())
				}
				waitNoHelpers(t, win)
			})
		}
	}
}

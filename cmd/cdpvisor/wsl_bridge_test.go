package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/transport"
)

// natModes runs a WSL test with mirrored networking and with NAT.
var natModes = []struct{ name, env string }{{"mirrored", ""}, {"NAT", "FAKEWIN_NAT=1"}}

// fakeWindowsIn is a fake Windows side whose own programs (the user's
// browsers a test starts) run in the networking mode env names.
func fakeWindowsIn(t *testing.T, env string) *actortest.FakeWindows {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	if env != "" {
		win.ExtraEnv = []string{env}
	}
	return win
}

// crashWindowsBrowser kills a fake Windows browser by its Linux pid and
// waits until it left the Windows process table and cdpvisor heard of it.
func crashWindowsBrowser(t *testing.T, win *actortest.FakeWindows, linuxPid int) {
	t.Helper()
	if err := syscall.Kill(linuxPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); len(win.Running()) != 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the killed browser is still in the Windows process table")
		}
	}
	time.Sleep(500 * time.Millisecond) // for cdpvisor to hear of the exit
}

func natEnv(win *actortest.FakeWindows, env string) []string {
	if env == "" {
		return win.Env()
	}
	return append(win.Env(), env)
}

// startWSLBridge starts `cdpvisor bridge args…` inside the fake WSL.
func startWSLBridge(t *testing.T, env []string, extra []*os.File, args ...string) (*bridgeProcess, chan struct{}) {
	t.Helper()
	b := &bridgeProcess{stderr: &actortest.SyncBuffer{}}
	b.cmd = exec.Command(binary, append([]string{"bridge"}, args...)...)
	b.cmd.Env = append(os.Environ(), env...)
	b.cmd.ExtraFiles = extra
	b.cmd.Stderr = b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = b.cmd.Process.Kill(); <-exited })
	return b, exited
}

// Pipe mode with a Windows browser: the tool's fds 3/4 reach a headless
// Windows browser the bridge launched; when the tool closes the pipe the
// bridge ends and stops it, leaving nothing on the Windows side.
func TestWSLBridgePipeMode(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name, func(t *testing.T) {
			win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
			toBridgeR, toBridgeW, _ := os.Pipe()
			fromBridgeR, fromBridgeW, _ := os.Pipe()
			defer fromBridgeR.Close()
			b, exited := startWSLBridge(t, natEnv(win, mode.env), []*os.File{toBridgeR, fromBridgeW},
				"--remote-debugging-pipe", "--headless=new", "--windows")
			toBridgeR.Close()
			fromBridgeW.Close()
			pipe := transport.NewPipeConn(fromBridgeR, toBridgeW, nil)
			if err := pipe.Write([]byte(`{"id":1,"method":"Browser.getVersion"}`), false); err != nil {
				t.Fatal(err)
			}
			m := transport.NewMessage()
			if err := pipe.Read(m); err != nil || !strings.Contains(string(m.B), "FakeChrome") {
				t.Fatalf("answer over the pipe: %q %v\n%s", m.B, err, b.stderr.String())
			}
			onlyWindowsBrowser(t, win) // in the Windows process table, not a Linux child
			toBridgeW.Close()          // the tool is done
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				t.Fatalf("the bridge did not end with its pipe:\n%s", b.stderr.String())
			}
			nothingLeftOnWindows(t, win)
			waitNoHelpers(t, win)
		})
	}
}

// bridgeEndpoint waits for the bridge's DevTools line and returns its
// endpoint (http://127.0.0.1:PORT).
func bridgeEndpoint(t *testing.T, b *bridgeProcess) string {
	t.Helper()
	re := regexp.MustCompile(`DevTools listening on ws://(127\.0\.0\.1:\d+)/devtools/browser/`)
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(b.stderr.String()); m != nil {
			return "http://" + m[1]
		}
	}
	t.Fatalf("no DevTools line:\n%s", b.stderr.String())
	return ""
}

// Port mode with a Windows browser: a client's connection survives a
// kill -9 of the browser (relaunched on its next request), and SIGTERM
// stops the headless browser the bridge launched.
func TestWSLBridgePortMode(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name, func(t *testing.T) {
			win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
			b, exited := startWSLBridge(t, natEnv(win, mode.env), nil, "--remote-debugging-port=0", "--headless=new", "--windows")
			ep := bridgeEndpoint(t, b)
			var version struct{ WebSocketDebuggerURL string }
			getJSON(t, ep+"/json/version", &version)
			cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
			if a := cl.Call(1, "Browser.getVersion", `{}`, ""); a.Error != nil {
				t.Fatalf("Browser.getVersion: %s", a.Raw)
			}
			first := onlyWindowsBrowser(t, win)
			crashWindowsBrowser(t, win, first.LinuxPid)
			if a := cl.Call(2, "Target.createTarget", `{"url":"about:blank"}`, ""); a.Error != nil {
				t.Fatalf("after kill -9 of the browser: %s\n%s", a.Raw, b.stderr.String())
			}
			if second := onlyWindowsBrowser(t, win); second.WinPid == first.WinPid {
				t.Fatal("no new browser after the crash")
			}
			_ = b.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				t.Fatalf("the bridge did not end on SIGTERM:\n%s", b.stderr.String())
			}
			nothingLeftOnWindows(t, win)
			waitNoHelpers(t, win)
		})
	}
}

// The bridge reuses a Windows browser already running on the profile it
// is given (a Windows path): it attaches, launches nothing, and leaves
// that browser running when it ends.
func TestWSLBridgeReusesTheBrowserOnItsProfile(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name, func(t *testing.T) {
			win := fakeWindowsIn(t, mode.env)
			profile := `C:\Users\ann\tools profile`
			own := win.StartChrome(t, "--user-data-dir="+profile, "--remote-debugging-port=0", "--headless=new")
			waitFile(t, filepath.Join(win.Drives, "c", "Users", "ann", "tools profile", "DevToolsActivePort"))
			b, exited := startWSLBridge(t, win.Env(), nil, "--remote-debugging-port=0", "--headless=new", "--windows", "--user-data-dir="+profile)
			ep := bridgeEndpoint(t, b)
			var version struct{ WebSocketDebuggerURL string }
			getJSON(t, ep+"/json/version", &version)
			cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
			if a := cl.Call(1, "Browser.getVersion", `{}`, ""); a.Error != nil {
				t.Fatalf("Browser.getVersion: %s", a.Raw)
			}
			if r := win.Running(); len(r) != 1 || r[0].WinPid != own {
				t.Fatalf("running: %+v, want only the user's browser %d", r, own)
			}
			if !strings.Contains(b.stderr.String(), "ownership=attached") {
				t.Errorf("the bridge did not say it attached:\n%s", b.stderr.String())
			}
			_ = cl.Conn.Close()
			_ = b.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				t.Fatalf("the bridge did not end on SIGTERM:\n%s", b.stderr.String())
			}
			time.Sleep(300 * time.Millisecond)
			if r := win.Running(); len(r) != 1 || r[0].WinPid != own {
				t.Fatalf("after the bridge: %+v, want the user's browser %d still running", r, own)
			}
			waitNoHelpers(t, win)
		})
	}
}

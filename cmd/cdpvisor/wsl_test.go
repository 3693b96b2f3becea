package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// The WSL tests run cdpvisor inside a fake WSL (actortest.FakeWindows):
// its Windows browser is reached through a powershell.exe that runs the
// same scripts on a fake drive root with a Windows process table of its own.

func TestWSLBrowsersListsTheWindowsChrome(t *testing.T) {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	out, stderr, code := runCLI(t, win.Env(), "browsers", "--json")
	var list []struct {
		Name, Path string
		Windows    bool
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("browsers --json: exit %d\n%s\n%s", code, out, stderr)
	}
	found := false
	for _, b := range list {
		found = found || (b.Path == win.Chrome && b.Windows && b.Name == "Google Chrome")
	}
	if !found {
		t.Errorf("browsers --json lacks the Windows Chrome at %s:\n%s", win.Chrome, out)
	}
	text, _, code := runCLI(t, win.Env(), "browsers")
	if code != 0 || !strings.Contains(text, "Google Chrome (Windows)") {
		t.Errorf("browsers: exit %d, no Windows Chrome marked:\n%s", code, text)
	}
}

// onlyWindowsBrowser waits for exactly one running Windows browser.
func onlyWindowsBrowser(t *testing.T, win *actortest.FakeWindows) actortest.FakeWinProc {
	t.Helper()
	var running []actortest.FakeWinProc
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if running = win.Running(); len(running) == 1 {
			return running[0]
		}
	}
	t.Fatalf("Windows browsers running: %+v, want one", running)
	return actortest.FakeWinProc{}
}

// nothingLeftOnWindows waits until the fake Windows side has no browser and
// no temporary profile.
func nothingLeftOnWindows(t *testing.T, win *actortest.FakeWindows) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		running, profiles := win.Running(), win.TempProfiles()
		if len(running) == 0 && len(profiles) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("left on the Windows side: browsers %+v, temporary profiles %v", running, profiles)
		}
	}
}

// waitNoWaiter waits until no powershell.exe waits on a browser's exit
// (wait.ps1): the waiter ends with the coordinator that owns it.
func waitNoWaiter(t *testing.T, win *actortest.FakeWindows) {
	t.Helper()
	for end := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		w := win.Scripts(wsl.ScriptWait)
		if len(w) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Errorf("a powershell.exe still waits on the Windows browser's exit (wait.ps1, pids %v) after its coordinator is gone", w)
			return
		}
	}
}

// Lazy launch through powershell.exe, a crash (kill -9 of the Windows
// browser) noticed without a Linux pid and relaunched on the next request,
// and SIGTERM stopping the browser by Stop-Process and removing its
// profile from the Windows %TEMP%.
func TestWSLServeLifecycle(t *testing.T) {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	s := startServe(t, win.Env(), "--windows", "--state-dir", t.TempDir())
	time.Sleep(300 * time.Millisecond)
	if r := win.Running(); len(r) != 0 {
		t.Fatalf("a Windows browser runs before any client: %+v", r)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	first := onlyWindowsBrowser(t, win)
	if first.WinPid == first.LinuxPid || actortest.Alive(first.WinPid) {
		t.Fatalf("the fake's Windows pid %d is a Linux pid", first.WinPid)
	}
	if !strings.Contains(first.CommandLine, `--user-data-dir=C:\Users\ann\AppData\Local\Temp\cdpv-`) ||
		!strings.Contains(first.CommandLine, "--headless=new") {
		t.Errorf("the browser's Windows command line: %s", first.CommandLine)
	}
	if p := win.TempProfiles(); len(p) != 1 {
		t.Errorf("temporary profiles in the Windows %%TEMP%%: %v, want one", p)
	}
	for _, c := range s.browsers() { // its powershell.exe waiter is one
		if c == first.LinuxPid {
			t.Errorf("the Windows browser is a Linux child of serve (%d)", c)
		}
	}

	// The browser crashes: the next request gets a new one.
	crashWindowsBrowser(t, win, first.LinuxPid)
	getJSON(t, s.endpoint+"/json/version", &version)
	second := onlyWindowsBrowser(t, win)
	if second.WinPid == first.WinPid {
		t.Fatalf("no new browser after the crash: %+v", second)
	}
	if p := win.TempProfiles(); len(p) != 1 {
		t.Errorf("temporary profiles after the relaunch: %v, want the new one only", p)
	}

	if err := s.stop(t); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM; stderr:\n%s", err, s.stderr.String())
	}
	nothingLeftOnWindows(t, win)
	if actortest.Alive(second.LinuxPid) {
		t.Errorf("the browser's process %d still runs", second.LinuxPid)
	}
}

// Real Chromium behind the fake Windows side, driven by Puppeteer and
// Playwright, across a crash.
func TestWSLServeRealClients(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	win := actortest.NewFakeWindows(t, chromium)
	s := startServe(t, win.Env(), "--windows", "--state-dir", t.TempDir())
	for _, script := range []string{"puppeteer_connect.mjs", "playwright_connect.mjs"} {
		out, err := actortest.NodeScript(t, 60*time.Second, script, s.endpoint)
		if err != nil || !strings.Contains(out, `"result":2`) {
			t.Fatalf("%s: %v: %s\nserve stderr:\n%s", script, err, out, s.stderr.String())
		}
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	first := onlyWindowsBrowser(t, win)
	if err := syscall.Kill(first.LinuxPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	out, err := actortest.NodeScript(t, 60*time.Second, "playwright_connect.mjs", version.WebSocketDebuggerURL)
	if err != nil || !strings.Contains(out, `"result":2`) {
		t.Fatalf("playwright after kill -9 of the Windows browser: %v: %s", err, out)
	}
	if second := onlyWindowsBrowser(t, win); second.WinPid == first.WinPid {
		t.Fatalf("no new browser after the crash")
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM", err)
	}
	nothingLeftOnWindows(t, win)
}

// launchError asks a serve for its browser and returns the error answer.
func launchError(t *testing.T, endpoint string) string {
	t.Helper()
	resp, err := http.Get(endpoint + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		t.Fatalf("the launch worked: %s", body)
	}
	return string(body)
}

// Bad input: each failure names its cause and leaves nothing on either side.
func TestWSLBadInput(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	t.Run("no powershell.exe", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		env := append(win.Env(), "PATH=/usr/bin:/bin")
		s := startServe(t, env, "--windows", "--state-dir", t.TempDir())
		if body := launchError(t, s.endpoint); !strings.Contains(body, "powershell.exe not found") {
			t.Errorf("answer: %s", body)
		}
		nothingLeftOnWindows(t, win)
	})
	t.Run("powershell.exe failing", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		s := startServe(t, append(win.Env(), "FAKEWIN_FAIL=1"), "--windows", "--state-dir", t.TempDir())
		if body := launchError(t, s.endpoint); !strings.Contains(body, "powershell.exe tempdir.ps1 failed") || !strings.Contains(body, "FAKEWIN_FAIL") {
			t.Errorf("answer: %s", body)
		}
		nothingLeftOnWindows(t, win)
	})
	t.Run("NAT networking, the helper failing", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		s := startServe(t, append(win.Env(), "FAKEWIN_NAT=1", "FAKEWIN_NORELAY=1"), "--windows", "--state-dir", t.TempDir())
		if body := launchError(t, s.endpoint); !strings.Contains(body, "not reachable from WSL") || !strings.Contains(body, "networkingMode=mirrored") ||
			!strings.Contains(body, "not through the Windows helper either") || !strings.Contains(body, "FAKEWIN_NORELAY") {
			t.Errorf("answer: %s", body)
		}
		nothingLeftOnWindows(t, win)
	})
	t.Run("no chrome.exe", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		_, stderr, code := runCLI(t, win.Env(), "serve", "--browser", `C:\Program Files\Nope\chrome.exe`)
		if code == 0 || !strings.Contains(stderr, "not an executable file") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
	t.Run("drive without a mount", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		_, stderr, code := runCLI(t, win.Env(), "serve", "--browser", `E:\Chrome\chrome.exe`)
		if code == 0 || !strings.Contains(stderr, "drive E:, which is not mounted") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
	t.Run("--windows without a Windows browser", func(t *testing.T) {
		win := actortest.NewFakeWindows(t, fake)
		_, stderr, code := runCLI(t, win.Env(), "serve", "--windows", "--browser", "edge")
		if code == 0 || !strings.Contains(stderr, "Windows side") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}

// kill -9 of serve: its watchdog ends the Windows browser through
// powershell.exe by its Windows pid, and removes the profile from %TEMP%.
// The powershell.exe waiting on the browser's exit ends with serve, before
// the browser does: the fake's Stop-Process is held until that is checked,
// else the waiter could pass by ending with the browser a moment later.
func TestWSLKillNineOfServeLeavesNothing(t *testing.T) {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	gate := filepath.Join(win.Root, "stop-gate")
	openGate := func() { _ = os.WriteFile(gate, nil, 0o600) }
	t.Cleanup(openGate) // the stop.ps1 that ends the browser must not wait forever
	win.ExtraEnv = []string{"FAKEWIN_STOP_GATE=" + gate}
	stateDir := t.TempDir()
	s := startServe(t, win.Env(), "--windows", "--state-dir", stateDir)
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	browser := onlyWindowsBrowser(t, win)
	time.Sleep(300 * time.Millisecond) // the watchdog starts on Ready
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.done
	s.done <- nil // for the cleanup
	waitNoWaiter(t, win)
	if r := win.Running(); len(r) != 1 {
		t.Fatalf("running on the Windows side while Stop-Process is held: %+v, want the browser", r)
	}
	openGate()
	nothingLeftOnWindows(t, win)
	if actortest.Alive(browser.LinuxPid) {
		t.Errorf("the browser's process %d still runs", browser.LinuxPid)
	}
	waitClean(t, browser.LinuxPid, s.cmd.Process.Pid, stateDir)
}

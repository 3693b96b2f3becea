package windows_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// fakeWSL makes this test process cdpvisor inside the fake WSL, with env
// added to the fake's, and returns its Windows launcher and Chrome.
func fakeWSL(t *testing.T, env ...string) (*actortest.FakeWindows, windows.Launcher, launch.Browser) {
	t.Helper()
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	for _, kv := range append(win.Env(), env...) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	l := windows.NewLauncher(detect.HostSystem())
	b, err := l.Resolve("chrome")
	if err != nil {
		t.Fatal(err)
	}
	return win, l, b
}

// killLeft ends the Windows browsers a test left running on purpose, as a
// crash would, and waits for what waited on them, before the fake's root
// (its process table) goes.
func killLeft(t *testing.T, win *actortest.FakeWindows) {
	t.Cleanup(func() {
		for _, p := range win.Running() {
			_ = syscall.Kill(p.LinuxPid, syscall.SIGKILL)
		}
		for end := time.Now().Add(3 * time.Second); len(win.Running()) > 0 || len(win.Scripts(wsl.ScriptWait)) > 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Errorf("left on the Windows side: browsers %+v, waiters %v", win.Running(), win.Scripts(wsl.ScriptWait))
				return
			}
		}
	})
}

// A launch that fails once the browser runs, and whose Stop-Process fails
// too, keeps the browser (and says so); the powershell.exe waiting on its
// exit still ends with the launch that owned it.
func TestWindowsFailedStopEndsTheWaiter(t *testing.T) {
	win, l, b := fakeWSL(t, "FAKEWIN_FAIL="+wsl.ScriptStop)
	killLeft(t, win)
	opts := launch.Options{Browser: b, Headless: true, ReadyTimeout: 300 * time.Millisecond, ExtraArgs: []string{"--fake-never-ready"}}
	if p, err := l.Start(context.Background(), opts, nil); err == nil {
		p.Stop()
		t.Fatal("a browser that is never ready was launched")
	}
	if r := win.Running(); len(r) != 1 {
		t.Fatalf("running on the Windows side: %+v, want the browser Stop-Process failed to end", r)
	}
	if w := win.Scripts(wsl.ScriptWait); len(w) > 0 {
		t.Errorf("a powershell.exe still waits on the kept browser's exit (wait.ps1, pids %v) after the failed launch", w)
	}
}

// Detach leaves the browser running and ends its waiter by closing the
// waiter's stdin (on WSL, killing the interop process could leave the
// Windows powershell.exe running), at once: not by the kill that follows a
// waiter that did not hear it.
func TestWindowsDetachEndsTheWaiter(t *testing.T) {
	win, l, b := fakeWSL(t)
	killLeft(t, win)
	p, err := l.Start(context.Background(), launch.Options{Browser: b, Headless: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := win.Scripts(wsl.ScriptWait); len(w) != 1 {
		t.Fatalf("waiters of the running browser: %v, want one", w)
	}
	start := time.Now()
	p.Detach()
	if took := time.Since(start); took > time.Second {
		t.Errorf("Detach took %s: the waiter did not end on its stdin's close", took)
	}
	if w := win.Scripts(wsl.ScriptWait); len(w) > 0 {
		t.Errorf("a powershell.exe still waits on the detached browser (wait.ps1, pids %v)", w)
	}
	if r := win.Running(); len(r) != 1 || r[0].WinPid != p.WindowsPid {
		t.Errorf("running after Detach: %+v, want the browser %d", r, p.WindowsPid)
	}
}

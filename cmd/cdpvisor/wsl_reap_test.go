package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A run killed with its watchdog leaves its Windows browser and profile;
// the next coordinator's start-up reaper ends that browser by its Windows
// pid and removes the profile, and leaves alone a user's own Chrome, a live
// coordinator's profile and another distro's.
func TestWSLReaperCleansWhatAKilledRunLeft(t *testing.T) {
	win := actortest.NewFakeWindows(t, actortest.FakeBrowser(t))
	stateDir := t.TempDir()
	s := startServe(t, win.Env(), "--windows", "--state-dir", stateDir)
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	left := onlyWindowsBrowser(t, win)
	profiles := win.TempProfiles()
	wd := guardOf(t, s.cmd.Process.Pid) // both die at once: the guard, stopped, cannot see its coordinator go
	_ = syscall.Kill(wd, syscall.SIGSTOP)
	_ = s.cmd.Process.Kill()
	<-s.done
	s.done <- nil
	_ = syscall.Kill(wd, syscall.SIGKILL)
	waitGone(t, wd)
	time.Sleep(300 * time.Millisecond)
	if len(win.Running()) != 1 || len(profiles) != 1 {
		t.Fatalf("nothing was left to reap (running %+v, profiles %v): the test proves nothing", win.Running(), profiles)
	}
	waitNoWaiter(t, win) // the browser is left, not the powershell.exe that waited on it
	if !strings.Contains(filepath.Base(profiles[0]), fmt.Sprintf("-FakeDistro.%d-", os.Getuid())) {
		t.Errorf("the temporary profile %s is not marked with the distro and uid", profiles[0])
	}

	// What the reaper must not touch.
	own := win.StartChrome(t, `--user-data-dir=C:\Users\ann\own profile`, "--remote-debugging-port=0", "--headless=new")
	otherDistro := filepath.Join(win.TempDir(), fmt.Sprintf("cdpv-%d-Other.%d-0123456789", s.cmd.Process.Pid, os.Getuid()))
	liveOwner := filepath.Join(win.TempDir(), fmt.Sprintf("cdpv-%d-FakeDistro.%d-0123456789", os.Getpid(), os.Getuid()))
	for _, d := range []string{otherDistro, liveOwner} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}

	s2 := startServe(t, win.Env(), "--windows", "--state-dir", stateDir)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, err := os.Stat(profiles[0])
		if !actortest.Alive(left.LinuxPid) && os.IsNotExist(err) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the dead run's browser (alive %v) or profile %s is still there; serve stderr:\n%s", actortest.Alive(left.LinuxPid), profiles[0], s2.stderr.String())
		}
	}
	if !strings.Contains(s2.stderr.String(), "ended a Windows browser left by a dead coordinator") {
		t.Errorf("the reaper did not log the browser it ended:\n%s", s2.stderr.String())
	}
	running := win.Running()
	if len(running) != 1 || running[0].WinPid != own {
		t.Errorf("running on the Windows side: %+v, want the user's own Chrome (%d) only", running, own)
	}
	for _, d := range []string{otherDistro, liveOwner} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("the reaper removed %s: %v", d, err)
		}
	}
	if err := s2.stop(t); err != nil {
		t.Fatalf("serve exited with %v", err)
	}
}

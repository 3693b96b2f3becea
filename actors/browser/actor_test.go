package browser_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/fsm"
)

func TestConcurrentDemandsShareOneLaunch(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-start-delay=300ms"), proxy.Spec{})
	ctx := served.Context(t)
	var wg sync.WaitGroup
	eps := make([]browser.Endpoint, 20)
	errs := make([]error, 20)
	for i := range eps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eps[i], errs[i] = inst.Browser.EnsureRunning(ctx)
		}()
	}
	wg.Wait()
	for i := range eps {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if eps[i].Generation != 1 || eps[i].Pid != eps[0].Pid {
			t.Fatalf("demand %d got generation %d pid %d; want one launch (generation 1, pid %d)", i, eps[i].Generation, eps[i].Pid, eps[0].Pid)
		}
	}
}

func TestLaunchFailuresAreClassified(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		cause      launch.Cause
		text       string
		attachable bool // launched with a debugging port, not the pipe
	}{
		{"never ready", []string{"--fake-never-ready"}, launch.CauseTimedOut, "no answer on the debugging pipe", false},
		{"never ready on a port", []string{"--fake-never-ready"}, launch.CauseTimedOut, "no DevTools line", true},
		{"json/version never answers", []string{"--fake-ready-delay=1h"}, launch.CauseTimedOut, "/json/version", true},
		{"exits early", []string{"--fake-exit-code=3", "--fake-stderr-line=something broke"}, launch.CauseExitedEarly, "something broke", false},
		{"root without sandbox", []string{"--fake-exit-code=1", "--fake-stderr-line=Running as root without --no-sandbox is not supported. See https://crbug.com/638180."}, launch.CauseRootNoSandbox, "--no-sandbox", false},
		{"profile in use", []string{"--fake-exit-code=21", "--fake-stderr-line=The profile appears to be in use by another Chromium process"}, launch.CauseProfileInUse, "in use", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := served.FakeLaunch(t, c.args...)
			opts.ReadyTimeout, opts.Attachable = time.Second, c.attachable
			inst := served.StartInstance(t, opts, proxy.Spec{})
			_, err := inst.Browser.EnsureRunning(served.Context(t))
			var le *launch.Error
			if !errors.As(err, &le) || le.Cause != c.cause || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("got %v, want cause %s mentioning %q", err, c.cause, c.text)
			}
			if c.cause == launch.CauseExitedEarly && le.ExitCode != 3 {
				t.Errorf("exit code %d, want 3", le.ExitCode)
			}
			st, _ := inst.Browser.Status(served.Context(t))
			if st.State != fsm.BrowserIdle || st.Pid != 0 {
				t.Errorf("after a failed launch: state %s pid %d, want idle and no process", st.State, st.Pid)
			}
			if left := actortest.LeftoverFiles(os.TempDir()); len(left) != 0 {
				t.Errorf("a failed launch left %v", left)
			}
		})
	}
}

func TestNotFoundExecutable(t *testing.T) {
	opts := served.FakeLaunch(t)
	opts.Browser.Path = "/nonexistent/chromium"
	inst := served.StartInstance(t, opts, proxy.Spec{})
	_, err := inst.Browser.EnsureRunning(served.Context(t))
	var le *launch.Error
	if !errors.As(err, &le) || le.Cause != launch.CauseNotFound {
		t.Fatalf("got %v, want cause not_found", err)
	}
}

func TestSlowStartAndSplitStderr(t *testing.T) {
	opts := served.FakeLaunch(t, "--fake-start-delay=700ms", "--fake-split-stderr", "--fake-ready-delay=300ms")
	opts.Attachable = true // on a debugging port: the line announces it
	inst := served.StartInstance(t, opts, proxy.Spec{})
	ep, err := inst.Browser.EnsureRunning(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ep.WSURL, "ws://127.0.0.1:") || !strings.Contains(ep.WSURL, "/devtools/browser/") {
		t.Fatalf("ws URL %q not parsed from the split line", ep.WSURL)
	}
}

// A browser that ignores SIGTERM is SIGKILLed after the grace, and its
// profile is removed only once it has exited.
func TestStopEscalatesAndRemovesProfileAfterExit(t *testing.T) {
	opts := served.FakeLaunch(t, "--fake-ignore-sigterm", "--fake-spawn-child", "--fake-pid-file="+filepath.Join(t.TempDir(), "pids"))
	opts.StopGrace = 800 * time.Millisecond
	inst := served.StartInstance(t, opts, proxy.Spec{})
	ctx := served.Context(t)
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pidFile, _ := proc.FlagValue(opts.ExtraArgs, "fake-pid-file")
	pids := readPids(t, pidFile)
	stopped := make(chan error, 1)
	start := time.Now()
	go func() { stopped <- inst.Browser.Stop(ctx) }()
	time.Sleep(400 * time.Millisecond) // inside the grace: SIGTERM was ignored
	if !actortest.Alive(ep.Pid) {
		t.Fatal("the browser died although it ignores SIGTERM")
	}
	if _, err := os.Stat(ep.UserDataDir); err != nil {
		t.Fatalf("profile removed while the browser still runs: %v", err)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < opts.StopGrace {
		t.Errorf("stopped after %s, before the %s grace", d, opts.StopGrace)
	}
	for _, pid := range pids {
		if actortest.Alive(pid) {
			t.Errorf("pid %d (%s) survived the stop", pid, actortest.Cmdline(pid))
		}
	}
	if _, err := os.Stat(ep.UserDataDir); !os.IsNotExist(err) {
		t.Errorf("temporary profile %s still there: %v", ep.UserDataDir, err)
	}
}

func TestUserProfileIsNeverDeleted(t *testing.T) {
	opts := served.FakeLaunch(t)
	opts.UserDataDir = t.TempDir()
	inst := served.StartInstance(t, opts, proxy.Spec{})
	ctx := served.Context(t)
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ep.UserDataDir != opts.UserDataDir || ep.TempProfile {
		t.Fatalf("endpoint profile %s temp=%v, want %s", ep.UserDataDir, ep.TempProfile, opts.UserDataDir)
	}
	if err := inst.Browser.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(opts.UserDataDir); err != nil {
		t.Fatalf("user profile removed: %v", err)
	}
}

func TestUnplannedExitIsNoticedAndNextDemandRelaunches(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	events, unsubscribe := served.Subscribe(t, inst.Browser)
	defer unsubscribe()
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	served.Expect[browser.Ready](t, events)
	actortest.KillPid(t, ep.Pid)
	exited := served.Expect[browser.Exited](t, events)
	if exited.Planned || exited.Generation != 1 || exited.Pid != ep.Pid {
		t.Fatalf("exit event %+v, want unplanned generation 1 pid %d", exited, ep.Pid)
	}
	st := served.WaitState(t, inst.Browser, fsm.BrowserIdle)
	if ex := st.LastExit; ex == nil || ex.Planned || ex.Cause != browser.CauseCrash || ex.Signal != "SIGKILL" || ex.Code != nil {
		t.Fatalf("last exit %+v, want an unplanned crash by SIGKILL", st.LastExit)
	}
	if exited.Record != *st.LastExit {
		t.Fatalf("the event's record %+v differs from status's %+v", exited.Record, *st.LastExit)
	}
	// Cleaned up alongside, not before, the next launch.
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ep.UserDataDir); os.IsNotExist(err) {
			break
		}
		if time.Now().After(end) {
			t.Fatal("temporary profile of the dead browser still there")
		}
	}
	ep2, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ep2.Generation != 2 || ep2.Pid == ep.Pid {
		t.Fatalf("relaunch: generation %d pid %d, want generation 2 and a new pid", ep2.Generation, ep2.Pid)
	}
}

func TestRestartAndLaunchWithNewOptions(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	ep1, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ep2, err := inst.Browser.Restart(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if ep2.Generation != 2 || ep2.Pid == ep1.Pid || actortest.Alive(ep1.Pid) {
		t.Fatalf("restart: %+v after %+v", ep2, ep1)
	}
	profile := t.TempDir()
	ep3, err := inst.Browser.Launch(ctx, browser.Change{UserDataDir: &profile, Args: []string{"--fake-start-delay=100ms"}})
	if err != nil {
		t.Fatal(err)
	}
	if ep3.Generation != 3 || ep3.UserDataDir != profile {
		t.Fatalf("launch with new options: %+v", ep3)
	}
	// A restart reuses the options of the last launch.
	ep4, err := inst.Browser.Restart(ctx, true)
	if err != nil || ep4.UserDataDir != profile {
		t.Fatalf("restart after launch: %+v %v, want profile %s", ep4, err, profile)
	}
}

func TestStopDuringLaunchFailsTheDemand(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-start-delay=2s"), proxy.Spec{})
	ctx := served.Context(t)
	demand := make(chan error, 1)
	go func() { _, err := inst.Browser.EnsureRunning(ctx); demand <- err }()
	served.WaitState(t, inst.Browser, fsm.BrowserLaunching)
	if err := inst.Browser.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-demand; !errors.Is(err, browser.ErrStopped) {
		t.Fatalf("demand got %v, want browser.ErrStopped", err)
	}
	if st := served.WaitState(t, inst.Browser, fsm.BrowserIdle); st.Pid != 0 {
		t.Fatalf("a process remains: %+v", st)
	}
}

func readPids(t *testing.T, path string) []int {
	t.Helper()
	var pids []int
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(path)
		pids = pids[:0]
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
		if len(pids) >= 2 {
			return pids
		}
	}
	t.Fatalf("pid file %s lists %v, want the browser and its child", path, pids)
	return nil
}

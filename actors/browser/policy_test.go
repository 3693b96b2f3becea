package browser_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

func ptr[T any](v T) *T { return &v }

// Two launches asked for at once, each changing another option, never
// start from the same stale options: the browser that runs after both has
// both changes, whichever came first.
func TestConcurrentLaunchesWithDifferentOptionsDoNotInterleave(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	for round := range 5 {
		if _, err := inst.Browser.Launch(ctx, browser.Change{Headless: ptr(true), Args: []string{}}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() { _, errs[0] = inst.Browser.Launch(ctx, browser.Change{Args: []string{"--fake-marker-a"}}) })
		wg.Go(func() { _, errs[1] = inst.Browser.Launch(ctx, browser.Change{Headless: ptr(false)}) })
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		st, err := inst.Browser.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cmd := actortest.Cmdline(st.Pid)
		if st.Headless || strings.Contains(cmd, "--headless") || !strings.Contains(cmd, "--fake-marker-a") {
			t.Fatalf("round %d: running browser headless=%v with %q; want both changes (headed, --fake-marker-a)", round, st.Headless, cmd)
		}
	}
}

// A launch that fails leaves the options as they were: the next launch,
// restart or demand uses those of the last launch that worked.
func TestFailedLaunchChangesNothingLaterLaunchesUse(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	if _, err := inst.Browser.Launch(ctx, browser.Change{Args: []string{"--fake-exit-code=3"}}); err == nil {
		t.Fatal("a browser exiting at once launched")
	}
	st, _ := inst.Browser.Status(ctx)
	if !strings.Contains(st.LastLaunchError, "exited") {
		t.Fatalf("status after a failed launch: last launch error %q, want why", st.LastLaunchError)
	}
	for _, next := range []func() (browser.Endpoint, error){
		func() (browser.Endpoint, error) { return inst.Browser.Launch(ctx, browser.Change{}) },
		func() (browser.Endpoint, error) { return inst.Browser.Restart(ctx, true) },
		func() (browser.Endpoint, error) { return inst.Browser.EnsureRunning(ctx) },
	} {
		ep, err := next()
		if err != nil {
			t.Fatalf("after a failed launch: %v", err)
		}
		if cmd := actortest.Cmdline(ep.Pid); strings.Contains(cmd, "--fake-exit-code") {
			t.Fatalf("the failed launch's option stuck: %q", cmd)
		}
	}
	if st, _ := inst.Browser.Status(ctx); st.LastLaunchError != "" {
		t.Fatalf("last launch error %q kept after a launch that worked", st.LastLaunchError)
	}
	// A bad browser name changes nothing either, and says so at once.
	if _, err := inst.Browser.Launch(ctx, browser.Change{Browser: ptr("/nonexistent/chrome")}); err == nil {
		t.Fatal("a missing executable was accepted")
	}
	if ep, err := inst.Browser.Restart(ctx, true); err != nil || !strings.Contains(ep.Browser.Path, "fakebrowser") {
		t.Fatalf("restart after a bad browser name: %+v %v", ep, err)
	}
}

func TestRestartGuardRefusesAYoungHealthyBrowserUnlessForced(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Browser.Restart(ctx, false); !errors.Is(err, browser.ErrRestartRefused) || !strings.Contains(err.Error(), "force") {
		t.Fatalf("restart of a browser started just now: %v, want ErrRestartRefused naming force", err)
	}
	if st, _ := inst.Browser.Status(ctx); st.Pid != ep.Pid {
		t.Fatalf("a refused restart changed the browser: pid %d, was %d", st.Pid, ep.Pid)
	}
	if ep2, err := inst.Browser.Restart(ctx, true); err != nil || ep2.Generation != 2 {
		t.Fatalf("forced restart: %+v %v", ep2, err)
	}
}

// The event stream tells a browser's life in order, and a subscriber that
// comes while a browser runs is told of it first.
func TestEventStreamTellsTheLifeInOrder(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ctx := served.Context(t)
	events, unsubscribe := served.Subscribe(t, inst.Browser)
	defer unsubscribe()
	ep, err := inst.Browser.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := served.Expect[browser.Starting](t, events); s.Generation != 1 {
		t.Fatalf("starting %+v", s)
	}
	if r := served.Expect[browser.Ready](t, events); r.Endpoint.Pid != ep.Pid || r.Endpoint.Identity.Pid != ep.Pid {
		t.Fatalf("ready %+v, want pid %d with its identity", r, ep.Pid)
	}
	late, unsubscribeLate := served.Subscribe(t, inst.Browser)
	defer unsubscribeLate()
	if r := served.Expect[browser.Ready](t, late); r.Endpoint.Generation != 1 {
		t.Fatalf("a late subscriber was told %+v, want the running generation 1", r)
	}
	if err := inst.Browser.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if ex := served.Expect[browser.Exited](t, events); !ex.Planned || ex.Record.Cause != browser.CauseStopped {
		t.Fatalf("exit after a stop: %+v", ex)
	}
	if _, err := inst.Browser.Launch(ctx, browser.Change{Args: []string{"--fake-exit-code=4"}}); err == nil {
		t.Fatal("a browser exiting at once launched")
	}
	if f := served.Expect[browser.LaunchFailed](t, events); f.Generation != 2 || f.Err == nil {
		t.Fatalf("launch failure %+v", f)
	}
}

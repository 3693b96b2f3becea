package browser_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// A browser that answers nothing (stopped with SIGSTOP) is declared hung
// after the hang timeout, its process group killed, and the exit recorded
// as cause hung; the next demand relaunches.
func TestHungBrowserIsKilledAndRecordedAsHung(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t), HangTimeout: time.Second})
	ctx := served.Context(t)
	events, unsubscribe := served.Subscribe(t, b)
	defer unsubscribe()
	ep, err := b.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A healthy browser is never taken for a hung one.
	time.Sleep(2500 * time.Millisecond)
	if st, _ := b.Status(ctx); st.State != fsm.BrowserRunning || st.Pid != ep.Pid {
		t.Fatalf("a healthy browser was not left alone: %+v", st)
	}
	if err := syscall.Kill(ep.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// No timing bounds: the hang clock runs from the last probe, which can
	// precede the SIGSTOP (seen: 997 ms after it on a loaded machine).
	ex := served.Expect[browser.Exited](t, events)
	if ex.Planned || ex.Record.Cause != browser.CauseHung {
		t.Fatalf("exit %+v, want an unplanned exit of cause hung", ex)
	}
	for end := time.Now().Add(5 * time.Second); actortest.Alive(ep.Pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the hung browser was not killed")
		}
	}
	ep2, err := b.EnsureRunning(ctx)
	if err != nil || ep2.Generation != 2 {
		t.Fatalf("relaunch after the hang: %+v %v", ep2, err)
	}
	if st, _ := b.Status(ctx); st.LastExit == nil || st.LastExit.Cause != browser.CauseHung || st.Restarts != 1 {
		t.Fatalf("status after the hang: %+v", st)
	}
}

// The idle stop ends a browser nobody used for the idle time, not one a
// client is connected to, and the next demand launches again.
func TestIdleStopSparesConnectedClients(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t), IdleStop: 500 * time.Millisecond})
	ctx := served.Context(t)
	events, unsubscribe := served.Subscribe(t, b)
	defer unsubscribe()
	if err := b.SetClients(ctx, 1); err != nil {
		t.Fatal(err)
	}
	ep, err := b.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if st, _ := b.Status(ctx); st.State != fsm.BrowserRunning {
		t.Fatalf("stopped while a client was connected: %+v", st)
	}
	start := time.Now()
	if err := b.SetClients(ctx, 0); err != nil {
		t.Fatal(err)
	}
	ex := served.Expect[browser.Exited](t, events)
	if took := time.Since(start); !ex.Planned || ex.Record.Cause != browser.CauseIdle || took < 400*time.Millisecond {
		t.Fatalf("exit %+v after %s, want a planned idle stop after 500 ms", ex, took)
	}
	if actortest.Alive(ep.Pid) {
		t.Fatal("the idle browser still runs")
	}
	if ep2, err := b.EnsureRunning(ctx); err != nil || ep2.Generation != 2 {
		t.Fatalf("demand after the idle stop: %+v %v", ep2, err)
	}
}

// A launch slower than the idle time is not stopped the moment it is
// ready: the client that asked for it connects right after.
func TestIdleTimeCountsFromTheLaunchThatServedTheDemand(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t, "--fake-start-delay=600ms"), IdleStop: 300 * time.Millisecond})
	ctx := served.Context(t)
	if _, err := b.EnsureRunning(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the client's connection is registered a moment after
	if err := b.SetClients(ctx, 1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if st, _ := b.Status(ctx); st.State != fsm.BrowserRunning {
		t.Fatalf("stopped as soon as it was ready, before its client connected: %+v", st.LastExit)
	}
}

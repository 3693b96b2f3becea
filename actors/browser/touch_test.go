package browser_test

import (
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// Touch is demand: it keeps a browser nobody connects to from the idle
// stop, in the same run (the actor answers it without failing), and the
// idle stop comes once the touches end.
func TestTouchPutsOffTheIdleStop(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t), IdleStop: 600 * time.Millisecond})
	ctx := served.Context(t)
	events, unsubscribe := served.Subscribe(t, b)
	defer unsubscribe()
	ep, err := b.EnsureRunning(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if err := b.Touch(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if st, err := b.Status(ctx); err != nil || st.State != fsm.BrowserRunning || st.Generation != ep.Generation {
		t.Fatalf("after 1.2 s of touches: %+v %v, want generation %d running", st, err, ep.Generation)
	}
	if ex := served.Expect[browser.Exited](t, events); ex.Generation != ep.Generation || ex.Record.Cause != browser.CauseIdle {
		t.Fatalf("exit %+v, want the idle stop of generation %d", ex, ep.Generation)
	}
}

package browser_test

import (
	"errors"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// The user's own browser (serve --attach) is attached to, never stopped,
// restarted or switched: those are refused, saying what to do instead; a
// launch that changes nothing attaches.
func TestTheUsersBrowserIsNeverStoppedOrRestarted(t *testing.T) {
	profile := t.TempDir()
	outside := startOutsideBrowser(t, profile)
	b := served.StartBrowser(t, browser.Spec{
		Launch: served.FakeLaunch(t), UsersBrowser: true,
		Launcher: chromium.UsersBrowser{Profile: profile},
	})
	ctx := served.Context(t)
	ep, err := b.Launch(ctx, browser.Change{})
	if err != nil || ep.Ownership != "attached" || ep.Pid != outside.Process.Pid {
		t.Fatalf("attach: %+v %v, want attached to pid %d", ep, err, outside.Process.Pid)
	}
	headed := false
	for name, err := range map[string]error{
		"stop":    b.Stop(ctx),
		"restart": func() error { _, err := b.Restart(ctx, true); return err }(),
		"switch":  func() error { _, err := b.Launch(ctx, browser.Change{Headless: &headed}); return err }(),
	} {
		if !errors.Is(err, browser.ErrUsersBrowser) || len(remedy.Fixes(err)) == 0 {
			t.Errorf("%s: %v, want ErrUsersBrowser with what to do", name, err)
		}
	}
	if !actortest.Alive(outside.Process.Pid) {
		t.Fatal("the user's browser was stopped")
	}
	if again, err := b.EnsureRunning(ctx); err != nil || again.Generation != ep.Generation {
		t.Fatalf("after the refusals: %+v %v, want generation %d still attached", again, err, ep.Generation)
	}
}

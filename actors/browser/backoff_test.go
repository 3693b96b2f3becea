package browser_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// flakyLauncher launches the fake browser and, while failing is set, adds
// --fake-never-ready to the launch: the actor's options stay the same, only
// the browser stops becoming ready. It counts the launches it was asked for.
type flakyLauncher struct {
	launch.Launcher
	failing atomic.Bool
	starts  atomic.Int32
}

func (l *flakyLauncher) Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	l.starts.Add(1)
	if l.failing.Load() {
		opts.ExtraArgs = append(slices.Clone(opts.ExtraArgs), "--fake-never-ready")
		// Short for the launches meant to fail; a working one keeps the
		// usual timeout (300 ms was too short for it on a loaded machine).
		opts.ReadyTimeout = 300 * time.Millisecond
	}
	return l.Launcher.Start(ctx, opts, onStderr)
}

// backoffOf checks that err is a demand held back by the backoff, still
// saying what the launch waited for, and returns it.
func backoffOf(t *testing.T, err error) *browser.BackoffError {
	t.Helper()
	var be *browser.BackoffError
	var le *launch.Error
	if !errors.As(err, &be) || !errors.Is(err, browser.ErrLaunchBackoff) || !errors.As(err, &le) || le.Cause != launch.CauseTimedOut {
		t.Fatalf("got %v, want a launch backoff error wrapping the timed-out launch", err)
	}
	for _, want := range []string{"not launching again for", "no answer on the debugging pipe", "300ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("backoff error %q does not say %q", err, want)
		}
	}
	return be
}

// The window a failed launch opened, as the next held-back demand sees it.
func windowAfter(t *testing.T, b *browser.Actor) time.Duration {
	t.Helper()
	_, err := b.EnsureRunning(served.Context(t))
	be := backoffOf(t, err)
	return be.RetryAt.Sub(be.FailedAt)
}

// A browser that never becomes ready is not relaunched by every demand:
// after a failed launch, demands within the backoff window get its error
// at once; the window doubles with each failure in a row; Launch and
// Restart are never held back; a launch that works ends the backoff.
func TestLaunchBackoffHoldsDemandsBackAfterAFailedLaunch(t *testing.T) {
	opts := served.FakeLaunch(t)
	l := &flakyLauncher{Launcher: chromium.Launcher{}}
	l.failing.Store(true)
	b := served.StartBrowser(t, browser.Spec{Launch: opts, Launcher: l})
	ctx := served.Context(t)

	_, err := b.EnsureRunning(ctx)
	var le *launch.Error
	if !errors.As(err, &le) || le.Cause != launch.CauseTimedOut || !strings.Contains(err.Error(), "no answer on the debugging pipe") {
		t.Fatalf("first demand: %v, want the timed-out launch", err)
	}
	// Many quick demands, one after another and at once: no launch.
	start := time.Now()
	var wg sync.WaitGroup
	for range 10 {
		_, err := b.EnsureRunning(ctx)
		backoffOf(t, err)
		wg.Go(func() {
			if _, err := b.Replace(ctx, 1); !errors.Is(err, browser.ErrLaunchBackoff) {
				t.Errorf("Replace within the backoff: %v", err)
			}
		})
	}
	wg.Wait()
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("20 held-back demands took %s: they should be answered at once", d)
	}
	if n := l.starts.Load(); n != 1 {
		t.Fatalf("%d launches for 21 demands within the backoff, want 1", n)
	}
	st, _ := b.Status(ctx)
	if st.State != fsm.BrowserIdle || st.Generation != 1 || st.LastLaunchError == "" || st.NextLaunchAt == nil ||
		time.Until(*st.NextLaunchAt) > browser.LaunchBackoffMin || time.Until(*st.NextLaunchAt) <= 0 {
		t.Fatalf("status within the backoff: %+v, want idle, generation 1, the error and the next launch within 1 s", st)
	}
	if w := windowAfter(t, b); w != time.Second {
		t.Fatalf("first window %s, want 1s", w)
	}

	// After the window the next demand launches again; the window doubles.
	time.Sleep(time.Until(*st.NextLaunchAt) + 10*time.Millisecond)
	if _, err := b.EnsureRunning(ctx); errors.Is(err, browser.ErrLaunchBackoff) || !errors.As(err, &le) {
		t.Fatalf("a demand after the window: %v, want a new launch that times out", err)
	}
	if n := l.starts.Load(); n != 2 {
		t.Fatalf("%d launches after the window, want 2", n)
	}
	if w := windowAfter(t, b); w != 2*time.Second {
		t.Fatalf("window after two failures %s, want 2s", w)
	}

	// Launch and Restart are asked for by someone: never held back.
	if _, err := b.Launch(ctx, browser.Change{}); errors.Is(err, browser.ErrLaunchBackoff) || !errors.As(err, &le) {
		t.Fatalf("Launch within the backoff: %v, want a launch that times out", err)
	}
	if _, err := b.Restart(ctx, false); errors.Is(err, browser.ErrLaunchBackoff) || !errors.As(err, &le) {
		t.Fatalf("Restart within the backoff: %v, want a launch that times out", err)
	}
	if n := l.starts.Load(); n != 4 {
		t.Fatalf("%d launches after a Launch and a Restart, want 4", n)
	}
	if w := windowAfter(t, b); w != 8*time.Second {
		t.Fatalf("window after four failures %s, want 8s", w)
	}

	// A launch that works ends the backoff; the next failure starts it over.
	l.failing.Store(false)
	if _, err := b.EnsureRunning(ctx); !errors.Is(err, browser.ErrLaunchBackoff) {
		t.Fatalf("a demand within the window, the browser fixed: %v, still held back", err)
	}
	ep, err := b.Launch(ctx, browser.Change{})
	if err != nil || ep.Generation != 5 {
		t.Fatalf("Launch of the fixed browser: %+v %v", ep, err)
	}
	if st, _ := b.Status(ctx); st.NextLaunchAt != nil || st.LastLaunchError != "" {
		t.Fatalf("status after a launch that worked: next launch at %v, last launch error %q", st.NextLaunchAt, st.LastLaunchError)
	}
	l.failing.Store(true)
	if _, err := b.Restart(ctx, true); !errors.As(err, &le) {
		t.Fatalf("forced restart into a failing browser: %v", err)
	}
	if w := windowAfter(t, b); w != time.Second {
		t.Fatalf("window after a success and one failure %s, want 1s again", w)
	}
}

// A launch that failed with options no later launch uses (its change was
// reverted) holds nothing back: the next demand launches with the options
// of the last launch that worked.
func TestAFailedLaunchWithRevertedOptionsHoldsNoDemandBack(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t)})
	ctx := served.Context(t)
	if _, err := b.Launch(ctx, browser.Change{Args: []string{"--fake-exit-code=3"}}); err == nil {
		t.Fatal("a browser exiting at once launched")
	}
	ep, err := b.EnsureRunning(ctx)
	if err != nil || ep.Generation != 2 {
		t.Fatalf("a demand after a failed launch with other options: %+v %v, want a launch", ep, err)
	}
}

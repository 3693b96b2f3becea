package browser_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
)

// crashingLauncher launches the fake browser; its first crashes launches
// die of a signal before they are ready.
type crashingLauncher struct {
	launch.Launcher
	crashes atomic.Int32
	starts  atomic.Int32
}

func (l *crashingLauncher) Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	l.starts.Add(1)
	if l.crashes.Add(-1) >= 0 {
		opts.ExtraArgs = append(slices.Clone(opts.ExtraArgs), "--fake-crash-on-start")
	}
	return l.Launcher.Start(ctx, opts, onStderr)
}

// A browser that dies of a signal while it starts (Chromium, now and then,
// on a loaded machine) is tried once more at once: the demand waiting gets
// the browser. Two crashes in a row fail the demand, open the backoff, and
// are not tried a third time.
func TestACrashAtStartIsTriedOnceMore(t *testing.T) {
	for _, c := range []struct {
		crashes, starts int32
		works           bool
	}{{1, 2, true}, {2, 2, false}} {
		l := &crashingLauncher{Launcher: chromium.Launcher{}}
		l.crashes.Store(c.crashes)
		b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t), Launcher: l})
		ctx := served.Context(t)
		ep, err := b.EnsureRunning(ctx)
		var le *launch.Error
		switch {
		case c.works && (err != nil || ep.Generation != 2):
			t.Fatalf("%d crash(es) at start: %+v %v, want the second launch's browser", c.crashes, ep, err)
		case !c.works && (!errors.As(err, &le) || !le.Crashed()):
			t.Fatalf("%d crashes at start: %v, want the crash's launch error", c.crashes, err)
		}
		if !c.works {
			if _, err := b.EnsureRunning(ctx); !errors.Is(err, browser.ErrLaunchBackoff) {
				t.Fatalf("a demand after two crashes: %v, want it held back", err)
			}
		}
		if n := l.starts.Load(); n != c.starts {
			t.Fatalf("%d crash(es) at start: %d launches, want %d", c.crashes, n, c.starts)
		}
	}
}

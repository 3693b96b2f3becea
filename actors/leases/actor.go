package leases

import (
	"context"
	"os"
	"time"

	"github.com/rs/zerolog"
)

// Spec configures a LeasesActor.
type Spec struct {
	StateDir string // the coordinator's
	PID      int    // the coordinator's own: it keeps the leases naming it
	// Close closes a world of an instance ("" for the default one); a
	// world or instance that is gone already is no error to report.
	Close func(ctx context.Context, instance, world string) error
	// Gone says a world or instance the lease names is closed already.
	Gone  func(err error) bool
	Alive func(pid int) bool // proc.PidAlive
	Every time.Duration      // how often the holders are checked; 0: DefaultEvery
	Log   zerolog.Logger
}

// DefaultEvery: a world outlives its wrap by a second at most.
const DefaultEvery = time.Second

// closeTimeout bounds closing one world (its browser may be slow).
const closeTimeout = 15 * time.Second

// Actor is the LeasesActor: it owns nothing but its timer; the leases are
// files in the state dir, written by wraps and removed by this actor once
// their world is closed. It hears nobody: every tick it looks.
type Actor struct{ spec Spec }

// New makes an actor; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.Every <= 0 {
		spec.Every = DefaultEvery
	}
	return &Actor{spec: spec}
}

func (a *Actor) String() string { return "leases" }

// Serve checks the leases every tick until ctx is done, then removes its
// own: the coordinator's worlds end with it.
func (a *Actor) Serve(ctx context.Context) error {
	tick := time.NewTicker(a.spec.Every)
	defer tick.Stop()
	for {
		a.sweep(ctx)
		select {
		case <-ctx.Done():
			a.removeOwn()
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// sweep closes the worlds whose holder has ended and removes their leases,
// and the leases of coordinators that are gone.
func (a *Actor) sweep(ctx context.Context) {
	for path, l := range a.leases() {
		switch {
		case l.Coordinator != a.spec.PID:
			if !a.spec.Alive(l.Coordinator) {
				_ = os.Remove(path) // its worlds ended with it
			}
		case a.spec.Alive(l.Holder):
		default:
			a.release(ctx, path, l)
		}
	}
}

// release closes the lease's world and removes the lease.
func (a *Actor) release(ctx context.Context, path string, l Lease) {
	cctx, cancel := context.WithTimeout(ctx, closeTimeout)
	defer cancel()
	err := a.spec.Close(cctx, l.Instance, l.World)
	switch {
	case ctx.Err() != nil:
		return // stopping: removeOwn takes it
	case err == nil:
		a.spec.Log.Info().Str("world", l.World).Str("instance", l.Instance).Int("holder", l.Holder).
			Msg("world closed: the wrap that held it ended")
	case a.spec.Gone(err):
		a.spec.Log.Debug().Str("world", l.World).Str("instance", l.Instance).Int("holder", l.Holder).
			Msg("the wrap that held a world ended; the world was closed already, or never made")
	default:
		a.spec.Log.Warn().Err(err).Str("world", l.World).Str("instance", l.Instance).Int("holder", l.Holder).
			Msg("the wrap that held a world ended, and the world could not be closed; close it with the browser_context tool")
	}
	_ = os.Remove(path)
}

// leases reads the leases; malformed ones are removed.
func (a *Actor) leases() map[string]Lease {
	return readAll(a.spec.StateDir, func(err error) { a.spec.Log.Warn().Err(err).Msg("removed a malformed lease") })
}

// removeOwn removes this coordinator's leases when it stops.
func (a *Actor) removeOwn() { RemoveOf(a.spec.StateDir, a.spec.PID) }

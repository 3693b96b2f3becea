package launch

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Guard hears of every launch before its browser exists, so that whatever
// kills the coordinator, at any instant of a launch, a run or a stop, the
// guard ends what the launch started and removes its directory.
type Guard interface {
	// Launching holds f (the launch's temporary directory, its profile,
	// the browser) before the spawn: it returns once the guard has it.
	Launching(ctx context.Context, f Facts) (Guarded, error)
}

// Guarded is one launch a Guard holds.
type Guarded interface {
	// Spawned says how the browser is known now that it exists: at the
	// spawn (its pid, the leader of its process group; a Windows pid), and
	// again once it is ready (its resolved executable, its port).
	Spawned(id proc.BrowserIdentity)
	// Release: the coordinator has handled the launch itself (the browser
	// stopped and its directory removed, or let go on purpose).
	Release()
}

// LaunchDirEnv is set in the environment of every browser a launch spawns
// to the launch's temporary directory: its helpers inherit it, so a guard
// finds every process of a launch, even one whose pid it was never told.
const LaunchDirEnv = "CDPVISOR_LAUNCH_DIR"

// guard holds f with g (nil: no guard, a launch of a test or a tool).
func guard(ctx context.Context, g Guard, f Facts) (Guarded, error) {
	if g == nil {
		return unguarded{}, nil
	}
	return g.Launching(ctx, f)
}

type unguarded struct{}

func (unguarded) Spawned(proc.BrowserIdentity) {}
func (unguarded) Release()                     {}

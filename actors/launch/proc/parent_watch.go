package proc

import (
	"context"
	"os"
	"time"
)

// WatchParent calls gone when this process's parent exits (a host that dies
// without closing our stdin leaves us reparented), checking every poll; it
// ends with ctx. On Windows the parent pid never changes: a caller there
// needs another sign (stdin's EOF).
func WatchParent(ctx context.Context, poll time.Duration, gone func()) {
	parent := os.Getppid()
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != parent {
				gone()
				return
			}
		}
	}
}

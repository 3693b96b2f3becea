package main

import (
	"context"
	"os"
	"time"
)

// parentPoll is how often `cdpvisor mcp` checks that its host still lives.
const parentPoll = 500 * time.Millisecond

// watchParent calls gone when this process's parent exits (a host that
// dies without closing our stdin leaves us reparented); it ends with ctx.
// On Windows the parent pid never changes: stdin EOF ends the server there.
func watchParent(ctx context.Context, gone func()) {
	parent := os.Getppid()
	t := time.NewTicker(parentPoll)
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

package actors

import (
	"context"
	"time"
)

// drainPoll is how often a drain counts the clients still connected.
const drainPoll = 250 * time.Millisecond

// DrainFor is a replica's SIGTERM: readiness off at once (Drain), then the
// connected clients served until they left, the timeout is up or ctx ends;
// the caller stops the coordinator after it.
func (c *Coordinator) DrainFor(ctx context.Context, timeout time.Duration) {
	c.Drain()
	deadline := time.Now().Add(timeout)
	if n := c.Clients(ctx); n > 0 {
		c.cfg.Log.Info().Int("clients", n).Dur("drainTimeout", timeout).Msg("draining: serving the connected clients until they leave")
	}
	for c.Clients(ctx) > 0 && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(drainPoll):
		}
	}
}

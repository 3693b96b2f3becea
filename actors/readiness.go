package actors

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// Ready says whether this coordinator takes new clients, for an
// orchestrator's /health/ready: not while it drains, nor at its instance
// capacity, nor while its default browser's launches keep failing (the
// launch backoff holds demands back), nor while a feature says it is full
// (plug.Readiness).
func (c *Coordinator) Ready(ctx context.Context) (bool, string) {
	if c.draining.Load() {
		return false, "draining: cdpvisor is stopping, its connected clients are served until they leave"
	}
	if n := len(c.registry.All(ctx)); n >= c.cfg.MaxInstances {
		return false, fmt.Sprintf("at capacity: %d instances of %d", n, c.cfg.MaxInstances)
	}
	if st, err := c.def.Browser.Status(ctx); err == nil && st.NextLaunchAt != nil {
		return false, "its browser's launches keep failing: " + st.LastLaunchError
	}
	for _, f := range c.features {
		if r, ok := f.(plug.Readiness); ok {
			if ready, why := r.Ready(ctx); !ready {
				return false, why
			}
		}
	}
	return true, ""
}

// Drain turns readiness off for good: the orchestrator sends no new
// clients, while those connected are served until they leave or the
// drain time is up (the caller's).
func (c *Coordinator) Drain() { c.draining.Store(true) }

// Clients is how many client connections the coordinator's instances
// serve now, for a drain to know when the last one left.
func (c *Coordinator) Clients(ctx context.Context) int {
	n := 0
	for _, inst := range c.registry.All(ctx) {
		if k, err := inst.Proxy.Clients(ctx); err == nil {
			n += k
		}
	}
	return n
}

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

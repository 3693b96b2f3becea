// Package pacing is the PacingActor: it paces the page loads of every
// world's clients (a fair queue per instance, a number of loads at once
// that follows the machine) and tells how hard pressed each instance is
// (/cdpvisor/pressure, /metrics, coordinator_status, readiness). Past its
// saturation a browser given every load at once gets slower for everyone
// (measured in docs/performance.md); a load let go when one finishes keeps
// the browser at the pace it runs well.
package pacing

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// Spec configures the PacingActor.
type Spec struct {
	// MaxLoads is how many page loads each instance's browser runs at once
	// before the next wait their turn; 0: DefaultMaxLoads; negative: no
	// pacing (every load at once, counted all the same).
	MaxLoads int
	// LoadBound is how long a load holds its slot at most, when its page
	// never says it loaded; 0: DefaultLoadBound.
	LoadBound time.Duration
	Log       zerolog.Logger
}

// DefaultLoadBound lets a load's slot go when its page has not loaded
// after it: a page that never fires its load event (a stream, a long poll)
// holds up the others that long at most.
const DefaultLoadBound = 5 * time.Second

// DefaultMaxLoads is the loads at once an instance runs by default: as
// many as the machine has processors (measured: `cdpbench --only crowd`).
func DefaultMaxLoads() int { return max(2, runtime.NumCPU()) }

// Actor is the PacingActor. It owns each instance's slots, its queue of
// loads waiting, and the figures of its pressure.
type Actor struct {
	spec    Spec
	mailbox chan request
	// releases carries the slots given back, apart from the mailbox: a
	// relay that ends gives its slots back without waiting, even for an
	// actor that is stopping.
	releases chan ticket
	// last is the last ticket given, touched only by Serve's goroutine; it
	// outlives a restart of Serve, so a ticket of the Serve before is
	// never taken for one of this Serve's.
	last ticket
}

// What pacing brings to the coordinator (actors/plug).
var (
	_ plug.Feature         = (*Actor)(nil)
	_ plug.Stager          = (*Actor)(nil)
	_ plug.Mounter         = (*Actor)(nil)
	_ plug.InstanceWatcher = (*Actor)(nil)
	_ plug.Reporter        = (*Actor)(nil)
	_ plug.Readiness       = (*Actor)(nil)
	_ plug.MetricsSource   = (*Actor)(nil)
)

// New makes the actor; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.MaxLoads == 0 {
		spec.MaxLoads = DefaultMaxLoads()
	}
	if spec.LoadBound <= 0 {
		spec.LoadBound = DefaultLoadBound
	}
	return &Actor{spec: spec, mailbox: make(chan request), releases: make(chan ticket, releaseBuffer)}
}

func (a *Actor) String() string { return "pacing" }

// ticket names a load, from its ask for a slot to its slot's release.
type ticket uint64

// ErrUnknownInstance: the instance is not followed (closed, or not yet
// made).
var ErrUnknownInstance = errors.New("pacing: unknown instance")

// ask puts a load of world in instance in its turn and answers at once:
// its ticket, and a channel closed once it may go. The relay's actor asks
// (Handle), so a client's loads take their turns in the order it sent
// them; the wait for the turn is off that actor (await).
func (a *Actor) ask(ctx context.Context, instance, world string) (grant, error) {
	ctx, cancel := context.WithTimeout(ctx, tellTimeout)
	defer cancel()
	g, err := actor.Ask(ctx, a.mailbox, func(r chan grant) request {
		return askSlot{instance: instance, world: world, asked: time.Now(), reply: r}
	})
	if err == nil {
		err = g.err
	}
	return g, err
}

// await waits for a load's turn; ctx done first, the load is withdrawn
// (a slot granted meanwhile is given back).
func (a *Actor) await(ctx context.Context, g grant) error {
	select {
	case <-g.granted:
		return nil
	case <-ctx.Done():
		a.release(g.t)
		return ctx.Err()
	}
}

// release gives a load's slot back (its page loaded, it failed, its client
// left), or withdraws a load still waiting. A ticket already released is
// ignored.
func (a *Actor) release(t ticket) {
	if t == 0 {
		return
	}
	select {
	case a.releases <- t:
	default: // a crowd's worth waiting: the actor is stopping, or far behind
		timer := time.NewTimer(tellTimeout)
		defer timer.Stop()
		select {
		case a.releases <- t:
		case <-timer.C:
		}
	}
}

// releaseBuffer holds the slots given back until the actor takes them.
const releaseBuffer = 4096

// tellTimeout bounds a release: the actor answers at once unless it is
// stopping, when nothing is paced anymore.
const tellTimeout = 2 * time.Second

// Serve runs the actor until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	r := newRun(a)
	defer r.stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-a.mailbox:
			r.handle(m)
		case t := <-a.releases:
			r.releaseTicket(t, time.Now())
		case <-r.expiry.C:
			r.expire(time.Now())
		}
	}
}

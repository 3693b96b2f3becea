package pacing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// run is the state of one Serve: lost with it when the actor restarts,
// when every load waiting is let go (nothing paces them anymore).
type run struct {
	a         *Actor
	instances map[string]*instance
	tickets   map[ticket]*waiter // every load waiting or running, by ticket
	expiry    *time.Timer        // at the earliest bound of a running load
	// early are the asks for the default instance's figures made before
	// it was followed (its endpoint serves a moment before): answered once
	// it is.
	early []askFigures
}

// instance is what the actor keeps of one instance.
type instance struct {
	seen    plug.Instance
	running int
	queue   fairQueue
	waits   waitWindow
	cpu     cpuRate
}

// waiter is a load, waiting or running.
type waiter struct {
	world   string
	ticket  ticket
	inst    *instance
	asked   time.Time
	granted chan struct{} // closed when it may go
	running bool
	until   time.Time // its slot's bound, once running
}

func newRun(a *Actor) *run {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &run{a: a, instances: map[string]*instance{}, tickets: map[ticket]*waiter{}, expiry: t}
}

// stop lets every load waiting go: a restarted actor knows none of them.
func (r *run) stop() {
	r.expiry.Stop()
	for _, w := range r.tickets {
		if !w.running {
			close(w.granted)
		}
	}
}

func (r *run) handle(m request) {
	switch m := m.(type) {
	case askSlot:
		r.ask(m)
	case follow:
		if r.instances[m.inst.ID] == nil {
			r.instances[m.inst.ID] = &instance{seen: m.inst, queue: newFairQueue()}
		}
		close(m.done)
		if m.inst.Default {
			early := r.early
			r.early = nil
			for _, ask := range early {
				r.handle(ask)
			}
		}
	case forget:
		if in := r.instances[m.id]; in != nil {
			delete(r.instances, m.id)
			for t, w := range r.tickets {
				if w.inst == in {
					r.drop(t, w)
					if !w.running {
						close(w.granted) // nothing paces a closed instance's loads
					}
				}
			}
		}
	case askFigures:
		in, err := r.find(m.ref)
		if err != nil && m.ref == "" && len(r.instances) == 0 {
			r.early = append(r.early, m)
			return
		}
		if err != nil {
			m.reply <- figuresAnswer{err: err}
			return
		}
		m.reply <- figuresAnswer{inst: in.seen, f: r.figuresOf(in, m.now)}
	case askInstances:
		list := make([]plug.Instance, 0, len(r.instances))
		for _, in := range r.instances {
			list = append(list, in.seen)
		}
		m.reply <- list
	case cpuSample:
		if in := r.instances[m.id]; in != nil {
			in.cpu.add(m.pid, m.at, m.cpu)
		}
	default:
		actor.Unknown(r.a.spec.Log, r.a.String(), m)
	}
}

// ask grants a slot at once when one is free and nothing waits before it;
// else the load waits its turn.
func (r *run) ask(m askSlot) {
	in := r.instances[m.instance]
	if in == nil {
		m.reply <- grant{err: fmt.Errorf("%w %s", ErrUnknownInstance, m.instance)}
		return
	}
	r.a.last++
	w := &waiter{world: m.world, ticket: r.a.last, inst: in, asked: m.asked, granted: make(chan struct{})}
	r.tickets[w.ticket] = w
	if r.free(in) && in.queue.len() == 0 {
		r.start(w, time.Now())
	} else {
		in.queue.push(w)
	}
	m.reply <- grant{t: w.ticket, granted: w.granted}
}

// free says the instance runs fewer loads than it may.
func (r *run) free(in *instance) bool {
	return r.a.spec.MaxLoads < 0 || in.running < r.a.spec.MaxLoads
}

// start lets a load go: its slot is held until its page loaded, or its
// bound.
func (r *run) start(w *waiter, now time.Time) {
	w.running, w.until = true, now.Add(r.a.spec.LoadBound)
	w.inst.running++
	w.inst.waits.add(now, now.Sub(w.asked))
	close(w.granted)
	r.rearm(now)
}

// releaseTicket ends a load: running, its slot goes to the next in turn;
// waiting, it leaves the queue.
func (r *run) releaseTicket(t ticket, now time.Time) {
	w := r.tickets[t]
	if w == nil {
		return
	}
	r.drop(t, w)
	r.fill(w.inst, now)
}

// drop forgets a load.
func (r *run) drop(t ticket, w *waiter) {
	delete(r.tickets, t)
	if w.running {
		w.inst.running--
	} else {
		w.inst.queue.remove(w)
	}
}

// fill starts the loads waiting while slots are free.
func (r *run) fill(in *instance, now time.Time) {
	for r.free(in) {
		w := in.queue.pop()
		if w == nil {
			return
		}
		r.start(w, now)
	}
}

// expire releases the loads past their bound.
func (r *run) expire(now time.Time) {
	for t, w := range r.tickets {
		if w.running && !now.Before(w.until) {
			r.a.spec.Log.Debug().Str("instance", w.inst.seen.ID).Str("world", w.world).
				Msg("a page did not say it loaded within the bound: its load's slot goes to the next")
			r.drop(t, w)
			r.fill(w.inst, now)
		}
	}
	r.rearm(now)
}

// rearm sets the timer to the earliest bound of a running load.
func (r *run) rearm(now time.Time) {
	next := time.Time{}
	for _, w := range r.tickets {
		if w.running && (next.IsZero() || w.until.Before(next)) {
			next = w.until
		}
	}
	r.expiry.Stop()
	if !next.IsZero() {
		r.expiry.Reset(max(next.Sub(now), time.Millisecond))
	}
}

// find is the instance ref names: "" the default one, a port the one
// whose endpoint it is, else an id.
func (r *run) find(ref string) (*instance, error) {
	for _, in := range r.instances {
		switch {
		case ref == "" && in.seen.Default, ref == in.seen.ID:
			return in, nil
		case ref != "" && strings.HasSuffix(in.seen.Endpoint, ":"+ref):
			if _, err := strconv.Atoi(ref); err == nil {
				return in, nil
			}
		}
	}
	if ref == "" {
		return nil, fmt.Errorf("%w: the default instance is not served yet", ErrUnknownInstance)
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownInstance, ref)
}

// figures is what the actor itself knows of an instance's pressure.
type figures struct {
	running, queued int
	p50, p99        time.Duration
	waited          int // loads let go in the window
	cpuPercent      float64
}

func (r *run) figuresOf(in *instance, now time.Time) figures {
	f := figures{running: in.running, queued: in.queue.len(), cpuPercent: math.NaN()}
	f.p50, f.p99, f.waited = in.waits.quantiles(now)
	if p, ok := in.cpu.percent(); ok {
		f.cpuPercent = p
	}
	return f
}

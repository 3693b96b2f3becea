// Package liveview is the LiveViewActor: the page at /ui that shows every
// instance and world live, the screencasts and input of a human watching or
// taking over a page (through CDP sessions of its own, opened only while
// someone watches), the holds a takeover puts on a world (decided here,
// enforced by a stage of each of the world's relays: hold.go), and the
// requests of agents for a human (request_human).
package liveview

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Path is where an endpoint serves the live view.
const Path = state.LiveViewPath

// Spec configures the LiveViewActor.
type Spec struct {
	// Poll is how often the page's facts (browsers, worlds, downloads) are
	// read while someone watches; 0: a second.
	Poll time.Duration
	// OnHold, when set, hears a human take a world over (held) and hand
	// it back: the world's journal. It must not wait.
	OnHold func(instance, world string, held bool)
	// OnHuman, when set, hears a request_human answered or given up: the
	// world the human looked at, the agent's reason, the human's note (or
	// why none came), when it was asked and answered: the world's
	// recording. It must not wait.
	OnHuman func(world, reason, answer string, asked, answered time.Time)
	Log     zerolog.Logger
}

// Instance is what the live view is given of an instance: what every
// feature is.
type Instance = plug.Instance

// Actor is the LiveViewActor, one per coordinator.
type Actor struct {
	spec        Spec
	mailbox     chan request
	screencasts atomic.Int32 // running now: none without a viewer
	viewerIDs   atomic.Int64
}

// New makes the actor; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.Poll <= 0 {
		spec.Poll = time.Second
	}
	return &Actor{spec: spec, mailbox: make(chan request)}
}

func (a *Actor) String() string { return "liveview" }

// Screencasts is how many page screencasts run now.
func (a *Actor) Screencasts() int { return int(a.screencasts.Load()) }

// Errors the actor answers.
var (
	// ErrNoHuman: nobody answered a request for a human in time.
	ErrNoHuman = errors.New("no human answered")
	// ErrStopped: the live view is stopping.
	ErrStopped = errors.New("the live view stopped")
)

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in handle.
type request interface{ isLiveViewRequest() }

// Messages the actor hears.
type (
	watchInstance  struct{ inst Instance }
	forgetInstance struct{ id string }
	holdOf         struct {
		instance, world string
		reply           chan *gate
	}
	viewerJoined struct{ v *viewer }
	viewerLeft   struct{ v *viewer }
	fromViewer   struct {
		v   *viewer
		cmd command
	}
	fromInstance struct {
		id  string
		msg feedNews
	}
	askHuman struct{ q *humanRequest }
	gaveUp   struct{ q *humanRequest }
	gathered struct{ facts map[string]instanceFacts }
)

func (watchInstance) isLiveViewRequest()  {}
func (forgetInstance) isLiveViewRequest() {}
func (holdOf) isLiveViewRequest()         {}
func (viewerJoined) isLiveViewRequest()   {}
func (viewerLeft) isLiveViewRequest()     {}
func (fromViewer) isLiveViewRequest()     {}
func (fromInstance) isLiveViewRequest()   {}
func (askHuman) isLiveViewRequest()       {}
func (gaveUp) isLiveViewRequest()         {}
func (gathered) isLiveViewRequest()       {}

// Watch has the live view show an instance (and follow its browser's
// events and its worlds) until Forget.
func (a *Actor) Watch(ctx context.Context, inst Instance) error {
	return actor.Send(ctx, a.mailbox, request(watchInstance{inst: inst}))
}

// Forget stops showing an instance (it was closed).
func (a *Actor) Forget(ctx context.Context, id string) error {
	return actor.Send(ctx, a.mailbox, request(forgetInstance{id: id}))
}

// gateOf is the gate of a world of an instance, which its relays' holds
// obey.
func (a *Actor) gateOf(ctx context.Context, instance, world string) (*gate, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan *gate) request { return holdOf{instance: instance, world: world, reply: r} })
}

// Serve runs the actor until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	r := newRun(a, ctx)
	defer r.shutdown()
	ticker := time.NewTicker(a.spec.Poll)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-a.mailbox:
			r.handle(m)
		case <-ticker.C:
			r.tick()
		}
	}
}

// run is what the actor owns while it serves; only its goroutine touches it.
type run struct {
	a         *Actor
	ctx       context.Context
	log       zerolog.Logger
	instances map[string]*inst
	order     []string // instance ids, the default first, then as watched
	viewers   map[*viewer]bool
	gates     map[holdKey]*gate
	holders   map[holdKey]*viewer
	humans    humanRequests
	events    eventRing
	facts     map[string]instanceFacts // the last gathering
	gathering bool
	helpers   sync.WaitGroup // the gatherings under way
	lastState []byte         // the state last pushed
}

// holdKey names a world: an instance and the world's name ("": the pages
// of no world, which no relay obeys).
type holdKey struct{ instance, world string }

func newRun(a *Actor, ctx context.Context) *run {
	return &run{
		a: a, ctx: ctx, log: a.spec.Log, instances: map[string]*inst{}, viewers: map[*viewer]bool{},
		gates: map[holdKey]*gate{}, holders: map[holdKey]*viewer{}, humans: newHumanRequests(), facts: map[string]instanceFacts{},
	}
}

func (r *run) handle(m request) {
	switch m := m.(type) {
	case watchInstance:
		r.watch(m.inst)
	case forgetInstance:
		r.forget(m.id)
	case holdOf:
		m.reply <- r.gate(holdKey{m.instance, m.world})
	case viewerJoined:
		r.join(m.v)
	case viewerLeft:
		r.leave(m.v)
	case fromViewer:
		r.command(m.v, m.cmd)
	case fromInstance:
		if in := r.instances[m.id]; in != nil {
			r.instanceNews(in, m.msg)
		}
	case askHuman:
		r.askHuman(m)
	case gaveUp:
		r.gaveUp(m.q)
	case gathered:
		r.gathering = false
		r.facts = m.facts
		r.pushState()
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

func (r *run) gate(k holdKey) *gate {
	g := r.gates[k]
	if g == nil {
		g = &gate{}
		r.gates[k] = g
	}
	return g
}

// tick refreshes the facts while someone watches, and the state of a
// viewer that missed one.
func (r *run) tick() {
	if len(r.viewers) == 0 {
		return
	}
	r.gather()
	for _, in := range r.instances {
		r.readTitles(in)
	}
	r.pushState()
}

func (r *run) shutdown() {
	for v := range r.viewers {
		v.end("cdpvisor is stopping")
	}
	for _, in := range r.instances {
		r.stopInstance(in)
	}
	for _, g := range r.gates {
		g.handBack() // nobody is left to hand them back
	}
	r.humans.failAll(ErrStopped)
	r.helpers.Wait()
}

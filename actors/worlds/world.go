package worlds

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// World is the handle of one world that its relays and the endpoint hold:
// what they may ask of the WorldsActor about it, and a view of its
// contexts they read without asking. The WorldsActor alone writes the
// view; a handle outlives its world (a relay may still hold it after the
// world was closed), and asks through a stale handle fail.
type World struct {
	name string
	a    *Actor
	view atomic.Pointer[view]
	// proxy is the world's guard (guard.go); nil: no network policy.
	proxy atomic.Pointer[worldProxy]
}

// view is the world's contexts in one browser generation, published by
// the actor whenever they change, never changed after.
type view struct {
	gen     int
	context string          // the world's own context ("" while not made)
	made    map[string]bool // contexts its clients made inside it
}

func newWorld(name string, a *Actor) *World {
	w := &World{name: name, a: a}
	w.view.Store(&view{})
	return w
}

// Name is the world's name, as in /context/NAME.
func (w *World) Name() string { return w.name }

// Owns says a browser context is the world's: its own context, or one its
// clients made inside it, in the browser of the moment. It reads the
// published view: the relays ask it for every target event.
func (w *World) Owns(contextID string) bool {
	v := w.view.Load()
	return contextID != "" && (contextID == v.context || v.made[contextID])
}

// Made reports the contexts its clients made (Target.createBrowserContext),
// for Target.getBrowserContexts.
func (w *World) Made() []string {
	v := w.view.Load()
	out := make([]string, 0, len(v.made))
	for id := range v.made {
		out = append(out, id)
	}
	return out
}

// Context returns the world's context in the browser at ep, making it
// there first if needed (with the world's cookies restored). A relay asks
// it after a recovery: the new browser's context replaces the lost one.
func (w *World) Context(ctx context.Context, ep browser.Endpoint) (string, error) {
	got, err := actor.Ask(ctx, w.a.mailbox, func(r chan opened) request { return openWorld{world: w, ep: ep, reply: r} })
	if err != nil {
		return "", err
	}
	return got.context, got.err
}

// AddMade records a context a client made inside the world in browser
// generation gen. The relay waits for it before it tells its client the
// context's id: every later event of the context must find it owned.
func (w *World) AddMade(ctx context.Context, gen int, contextID string) error {
	_, err := actor.Ask(ctx, w.a.mailbox, func(r chan struct{}) request {
		return contextMade{world: w, gen: gen, context: contextID, reply: r}
	})
	return err
}

// Disposed says a client disposed a context it had made.
func (w *World) Disposed(gen int, contextID string) {
	w.a.tell(contextDisposed{world: w, gen: gen, context: contextID})
}

// CloseBrowser is a client's Browser.close inside the world: the world's
// pages close and the contexts its clients made are disposed; the browser,
// the world (its context and cookies) and the other worlds go on.
func (w *World) CloseBrowser(ctx context.Context, ep browser.Endpoint) error {
	errc, err := actor.Ask(ctx, w.a.mailbox, func(r chan error) request { return closePages{world: w, ep: ep, reply: r} })
	if err != nil {
		return err
	}
	return errc
}

// tellTimeout bounds how long news from a relay waits for the actor.
const tellTimeout = time.Second

// tell gives the actor news that needs no answer, waiting a little at most.
func (a *Actor) tell(m request) {
	ctx, cancel := context.WithTimeout(context.Background(), tellTimeout)
	defer cancel()
	if err := actor.Send(ctx, a.mailbox, m); err != nil {
		a.spec.Log.Warn().Msgf("the worlds actor did not take a %T within %s", m, tellTimeout)
	}
}

package worlds

import (
	"maps"

	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// world is one entry of the book: a world's life across browsers. Only the
// actor's goroutine touches it.
type world struct {
	handle *World
	// The world's own context, in browser generation gen; "" while it is
	// not made in the running browser.
	gen     int
	context string
	making  int                   // the generation its context is being made in; 0: none
	waiters []func(string, error) // who waits for that context
	made    map[string]bool       // contexts its clients made in this browser
	clients map[Closer]bool       // its client connections
	store   *storage.Store        // its cookies and localStorage (actors/worlds/storage)
	guard   *worldGuard           // its network policy and proxy (guard.go); nil: none
}

func newBookEntry(h *World) *world {
	w := &world{handle: h, made: map[string]bool{}, clients: map[Closer]bool{}}
	w.store = storage.NewStore(w)
	return w
}

// Name is the world's name; the entry is its storage's storage.World.
func (w *world) Name() string { return w.handle.name }

// publish gives the relays the world's contexts of the moment.
func (w *world) publish() {
	w.handle.view.Store(&view{gen: w.gen, context: w.context, made: maps.Clone(w.made)})
}

// owns says a context is the world's in the browser of the moment.
func (w *world) owns(contextID string) bool {
	return contextID != "" && (contextID == w.context || w.made[contextID])
}

// forget drops what the world had in a browser that is gone: its contexts
// went with it. Its storage stays, for the next browser.
func (w *world) forget() {
	w.context, w.gen, w.making = "", 0, 0
	clear(w.made)
	w.store.ContextGone()
	w.publish()
}

// settle answers everyone waiting for the world's context.
func (w *world) settle(context string, err error) {
	waiters := w.waiters
	w.waiters = nil
	for _, done := range waiters {
		done(context, err)
	}
}

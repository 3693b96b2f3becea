package worlds

import (
	"context"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// A world's relays ask the actor about the pages their clients make and
// close; the storage room does the work (actors/worlds/storage: a page's
// seeds, its localStorage read before it closes).

// prepareTimeout: a page whose preparation did not end by then (one that
// answers nothing) is navigated as it is: the client waits no longer.
const prepareTimeout = 1500 * time.Millisecond

// PreparePage gets a new page of the world in browser generation gen
// ready: the actor follows its localStorage changes (what a page signs in
// or out of and closes at once is kept) and, while the world has seeds,
// the page carries them. The relay asks it before it tells its client of
// a page the client made: two or four round trips of the browser's.
func (w *World) PreparePage(ctx context.Context, gen int, target string) {
	w.askAboutPage(ctx, pageAsk{gen: gen, target: target})
}

// BeforeClose reads the localStorage of the origin a page of the world
// shows, before its client closes it, answering once it is the world's
// (or prepareTimeout passed). The relay asks it for Target.closeTarget.
func (w *World) BeforeClose(ctx context.Context, gen int, target string) {
	w.askAboutPage(ctx, pageAsk{gen: gen, target: target, closing: true})
}

// pageAsk is a relay's ask about one page of a world in browser
// generation gen: get it ready (PreparePage), or read what it keeps before
// it closes (BeforeClose). Either is answered when done, or the asker
// stops waiting after prepareTimeout: its client waits no longer.
type pageAsk struct {
	world   *World
	gen     int
	target  string
	closing bool
	reply   chan struct{}
}

func (w *World) askAboutPage(ctx context.Context, q pageAsk) {
	ctx, cancel := context.WithTimeout(ctx, prepareTimeout)
	defer cancel()
	q.world = w
	_, _ = actor.Ask(ctx, w.a.mailbox, func(r chan struct{}) request { q.reply = r; return q })
}

// onPageAsk answers at once for a page of a world that is gone or moved to
// another browser: there is nothing of it to prepare or read.
func (r *run) onPageAsk(m pageAsk) {
	w := r.entry(m.world)
	switch {
	case w == nil || !r.current(w) || w.gen != m.gen:
		m.reply <- struct{}{}
	case m.closing:
		r.storage.BeforeClose(w.store, m.target, func() { m.reply <- struct{}{} })
	default:
		r.onPreparePage(w, m)
	}
}

func (r *run) onPreparePage(w *world, m pageAsk) {
	if w.store.WaitsForRestore(func() { r.onPageAsk(m) }) {
		return // its navigation must find the world's cookies
	}
	r.storage.PreparePage(w.store, m.target, func() { m.reply <- struct{}{} })
}

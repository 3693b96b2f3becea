package worlds

import (
	"encoding/json"
	"fmt"
	"time"
)

// ensure has the world's context made in the running browser, then calls
// done (if not nil) with it. A context is made once per browser however
// many ask; the world's cookies are restored into it (restore).
func (r *run) ensure(w *world, done func(string, error)) {
	if r.current(w) {
		if done != nil {
			done(w.context, nil)
		}
		return
	}
	if done != nil {
		w.waiters = append(w.waiters, done)
	}
	gen := r.ep.Generation
	if w.making == gen {
		return
	}
	params, err := r.contextParams(w)
	if err != nil {
		w.settle("", err)
		return
	}
	w.making = gen
	r.call("Target.createBrowserContext", params, func(a answer) {
		var res struct {
			BrowserContextID string `json:"browserContextId"`
		}
		if a.err() == nil {
			_ = json.Unmarshal(a.Result, &res)
		}
		if w.making != gen {
			// The world was closed meanwhile (its waiters were answered
			// then): a context made for nobody goes.
			if res.BrowserContextID != "" {
				r.dispose([]string{res.BrowserContextID}, func() {})
			}
			return
		}
		if err := a.err(); err != nil || res.BrowserContextID == "" {
			w.making = 0
			w.settle("", fmt.Errorf("making the browser context of world %s: %w", w.Name(), errOr(a.err(), "no browserContextId in the answer")))
			return
		}
		r.restore(w, gen, res.BrowserContextID)
	})
}

// restore makes the new context the world's, has its origins'
// localStorage wait for their first documents there, and sets the
// world's cookies into it. Who waits for the context is answered at once:
// a client connects and sets its pages up while the cookies are set;
// what must find them waits for them (the storage room's Restore): a page's
// preparation, hence its navigation, and a read of the world's storage.
func (r *run) restore(w *world, gen int, context string) {
	if w.making != gen {
		// Closed, or its browser gone, meanwhile: a context made for
		// nobody goes, and who waited for it hears so (unless a newer
		// browser's context is being made for them).
		r.dispose([]string{context}, func() {})
		if w.making == 0 {
			w.settle("", ErrBrowserGone)
		}
		return
	}
	w.making = 0
	if !r.running || r.ep.Generation != gen || r.entry(w.handle) == nil {
		w.settle("", ErrBrowserGone)
		return
	}
	w.context, w.gen = context, gen
	clear(w.made)
	w.store.PlantSeeds()                           // published with the context: its first page is prepared
	restore := r.storage.Restore(w.store, context) // under way before anyone hears of the context
	w.publish()
	cookies, origins := w.store.State().Counts()
	r.log.Info().Str("world", w.Name()).Str("context", context).Int("generation", gen).
		Int("cookiesRestored", cookies).Int("originsRestored", origins).Msg("world's browser context made")
	w.settle(context, nil)
	restore()
}

// snapshotDue reads the storage of every world that has clients (and
// fails the commands left unanswered too long: the same tick).
func (r *run) snapshotDue() {
	now := time.Now()
	r.expire(now)
	for _, w := range r.a.book {
		r.storage.ExpireRead(w.store, now)
	}
	for _, w := range r.a.book {
		if len(w.clients) > 0 {
			r.storage.ReadDue(w.store, now)
		}
	}
}

func errOr(err error, text string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s", text)
}

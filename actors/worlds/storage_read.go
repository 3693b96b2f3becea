package worlds

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// read reads the world's storage from its context in the running
// browser, then runs then (if not nil): its cookies, and the localStorage
// of every origin its pages show (origins still to get their seed aside:
// their page has not what the world keeps for them yet). Origins no page
// shows keep what was known of them. A kept world is then saved if it
// changed. A crash loses what changed since the last read.
func (r *run) read(w *world, then func()) { r.readStorage(w, then, true) }

// readStorage is read; a read that is not fresh (the tick's) joins one
// under way, a fresh one (a client gone, a close, an export, the stop)
// starts anew, what was under way answering nothing more: a read begun
// before the change it must see, or one held by a page that answers
// nothing, must not stand for it.
func (r *run) readStorage(w *world, then func(), fresh bool) {
	if w.store.waitsForRestore(func() { r.readStorage(w, then, fresh) }) {
		return // a read now would find the context without the world's cookies, and keep that
	}
	if then != nil {
		w.store.readers = append(w.store.readers, then)
	}
	if !r.current(w) {
		r.readDone(w, nil)
		return
	}
	if w.store.reading && !fresh {
		return
	}
	w.store.readBegins(time.Now())
	seq, context := w.store.readSeq, w.context
	// A read that expired (expireReads) is over: its late answers change
	// nothing.
	stale := func() bool { return w.store.readSeq != seq || w.context != context }
	r.call("Storage.getCookies", map[string]string{"browserContextId": context}, func(a answer) {
		if w.store.readSeq != seq {
			return
		}
		var res struct {
			Cookies json.RawMessage `json:"cookies"`
		}
		if a.err() != nil || json.Unmarshal(a.Result, &res) != nil || res.Cookies == nil || w.context != context {
			r.readDone(w, nil)
			return
		}
		cookies := w.store.lastCookies
		if cookies == nil || !bytes.Equal(res.Cookies, w.store.cookiesRead) {
			cookies = storagestate.FromCDP(res.Cookies)
			storagestate.State{Cookies: cookies}.Sort() // as the read's end sorts them: equal when unchanged
			w.store.cookiesRead, w.store.lastCookies = bytes.Clone(res.Cookies), cookies
		}
		// Kept at once: what a page's origins show may take longer.
		w.store.state = storagestate.State{Cookies: cookies, Origins: w.store.state.Origins}
		r.keep(w)
		r.targets(func(all []Target, err error) {
			if w.store.readSeq != seq {
				return
			}
			if err != nil || w.context != context {
				r.readDone(w, nil)
				return
			}
			r.keepPages(all)
			shown := map[string]string{} // origin → a page showing it
			for _, t := range all {
				origin, err := storagestate.URLOrigin(t.URL)
				if t.Type != "page" || t.Context != context || err != nil || w.store.seeds[origin] != nil {
					continue
				}
				shown[origin] = t.ID
			}
			r.readOrigins(w, shown, func(live map[string]map[string]string) {
				if stale() {
					if w.store.readSeq == seq {
						r.readDone(w, nil)
					}
					return
				}
				st := storagestate.State{Cookies: cookies, Origins: []storagestate.Origin{}}
				for _, o := range w.store.state.Origins {
					if _, read := live[o.Origin]; !read {
						st.Origins = append(st.Origins, o)
					}
				}
				for origin, items := range live {
					if len(items) > 0 {
						st.Origins = append(st.Origins, storagestate.OriginOf(origin, items))
					}
				}
				st.Sort()
				r.readDone(w, &st)
			})
		})
	})
}

// readOrigins reads the localStorage of each origin on a page showing it;
// an origin that could not be read is not in the answer.
func (r *run) readOrigins(w *world, shown map[string]string, then func(map[string]map[string]string)) {
	live := map[string]map[string]string{}
	left := len(shown)
	if left == 0 {
		then(live)
		return
	}
	done := func() {
		if left--; left == 0 {
			then(live)
		}
	}
	for origin, target := range shown {
		r.pageSession(w, target, func(session string, err error) {
			if err != nil {
				done()
				return
			}
			params := map[string]any{"storageId": map[string]any{"securityOrigin": origin, "isLocalStorage": true}}
			r.callOn(session, "DOMStorage.getDOMStorageItems", params, func(a answer) {
				var res struct {
					Entries [][]string `json:"entries"`
				}
				if a.err() == nil && json.Unmarshal(a.Result, &res) == nil {
					items := make(map[string]string, len(res.Entries))
					for _, e := range res.Entries {
						if len(e) == 2 {
							items[e[0]] = e[1]
						}
					}
					live[origin] = items
				}
				done()
			})
		})
	}
}

// readDone ends a read: st (nil: nothing read) becomes the world's
// storage, a kept world is saved, and the readers go on.
func (r *run) readDone(w *world, st *storagestate.State) {
	w.store.readEnds(time.Now())
	if st != nil {
		w.store.state = *st
	}
	r.keep(w)
	readers := w.store.readers
	w.store.readers = nil
	for _, then := range readers {
		then()
	}
}

// readWait bounds a read of a world's storage: a page that answers
// nothing (one mid-navigation, or held for a debugger) must not hold a
// close, an export or the stop for long. What was read before stays.
const readWait = 3 * time.Second

// expireReads ends the reads under way for longer than readWait.
func (r *run) expireReads(now time.Time) {
	for _, w := range r.a.book {
		if w.store.reading && now.Sub(w.store.readSince) > readWait {
			w.store.readSeq++
			r.log.Warn().Str("world", w.name()).Msg("the world's storage was not read in time; what was read before stays")
			r.readDone(w, nil)
		}
	}
}

// saveWait bounds how long the actor waits on the profiles to take a
// world's storage.
const saveWait = time.Second

// keep hands a kept world's storage to the profiles when it changed.
func (r *run) keep(w *world) {
	if !w.store.kept || r.a.spec.Profiles == nil {
		return
	}
	if w.store.hasSaved && w.store.state.Equal(w.store.saved) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), saveWait)
	defer cancel()
	if err := r.a.spec.Profiles.Save(ctx, w.name(), w.store.state); err != nil {
		r.log.Warn().Err(err).Str("world", w.name()).Msg("the world's storage was not handed to the profiles; the next read tries again")
		return
	}
	w.store.saved, w.store.hasSaved = w.store.state, true
}

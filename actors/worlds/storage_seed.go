package worlds

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// A kept origin's localStorage is set in a world's new context as the
// origin's first document loads there, before the page's own scripts run:
// each new page of a world with origins still to be seeded gets, before
// its client navigates it (the relay holds the client's navigation until
// PreparePage answers), a script of the actor's that sets the keys of
// the origin it finds itself in, each one the page has not (a page quicker
// than the actor's news of the origin's first document keeps what it
// wrote). It runs in the page's main world, first, leaving nothing behind
// (an isolated world of its own cost every document a V8 context more:
// +14 ms against +8 ms for the main world on a page's load, measured on
// Chromium 156; and clients saw that context). Once a page's document of
// an origin is there, the origin is seeded and leaves every page's
// script. Measured on Chromium 156: a
// session must have Page enabled before a navigation starts for its
// script to run in that navigation's document (Page.enable sent while one
// is under way is answered only once it committed, too late), hence
// before the client's navigation goes. A page made straight at an origin's URL
// (Target.createTarget with that url, a popup) gets the origin's cookies
// at once and its localStorage from its next document.

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
		r.onBeforeClose(w, m)
	default:
		r.onPreparePage(w, m)
	}
}

func (r *run) onPreparePage(w *world, m pageAsk) {
	if w.store.waitsForRestore(func() { r.onPageAsk(m) }) {
		return // its navigation must find the world's cookies
	}
	r.prepare(w, m.target, func() { m.reply <- struct{}{} })
}

// prepare has the page followed and carry the world's seeds of the
// moment (none: no script), then runs then. Its commands go pipelined on
// the page's session, which the browser takes in order: then waits for
// the last one's answer alone (two round trips with the attach, however
// many commands).
func (r *run) prepare(w *world, target string, then func()) {
	context := w.context
	r.pageSession(w, target, func(session string, err error) {
		ps := r.pages[target]
		if err != nil || ps == nil || w.context != context {
			then()
			return
		}
		seeds := maps.Clone(w.store.seeds)
		if old := ps.script; old != "" {
			ps.script, ps.scripted = "", nil
			r.callOn(session, "Page.removeScriptToEvaluateOnNewDocument", map[string]string{"identifier": old}, func(answer) {})
		}
		if len(seeds) == 0 {
			last := "DOMStorage.enable" // again: its answer says the first one was taken
			if ps.pageOn {
				ps.pageOn, last = false, "Page.disable"
			}
			r.callOn(session, last, nil, func(answer) { then() })
			return
		}
		if !ps.pageOn {
			ps.pageOn = true
			r.callOn(session, "Page.enable", nil, func(a answer) {
				if a.err() != nil {
					ps.pageOn = false
				}
			})
		}
		params := map[string]any{"source": seedScript(seeds)}
		r.callOn(session, "Page.addScriptToEvaluateOnNewDocument", params, func(a answer) {
			var res struct {
				Identifier string `json:"identifier"`
			}
			if a.err() == nil && json.Unmarshal(a.Result, &res) == nil && res.Identifier != "" {
				ps.script, ps.scripted = res.Identifier, seeds
			}
			then()
		})
	})
}

// seedScript sets, in a page's top-level document, the keys of the origin
// it is of. Each origin's keys are a JSON text of their own, parsed only in
// a document of that origin: every document of the world's pages runs the
// script, and most are of none of them.
func seedScript(seeds map[string]map[string]string) string {
	byOrigin := make(map[string]string, len(seeds))
	for origin, items := range seeds {
		pairs := make([][2]string, 0, len(items))
		for _, k := range slices.Sorted(maps.Keys(items)) {
			pairs = append(pairs, [2]string{k, items[k]})
		}
		data, _ := json.Marshal(pairs)
		byOrigin[origin] = string(data)
	}
	data, _ := json.Marshal(byOrigin)
	return fmt.Sprintf(`(() => { if (window !== window.top) return; const items = (%s)[location.origin]; if (!items) return; try { for (const [k, v] of JSON.parse(items)) if (localStorage.getItem(k) === null) localStorage.setItem(k, v); } catch (e) {} })()`, data)
}

// onNavigated marks an origin seeded once a page that carried its seed
// shows a document of it; every page of the world then carries the rest.
func (r *run) onNavigated(session string, raw json.RawMessage) {
	var p struct {
		Frame struct {
			ParentID string `json:"parentId"`
			URL      string `json:"url"`
		} `json:"frame"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Frame.ParentID != "" {
		return
	}
	origin, err := storagestate.URLOrigin(p.Frame.URL)
	if err != nil {
		return
	}
	ps := r.pageOfSession(session)
	if ps == nil || ps.world == nil || ps.scripted[origin] == nil {
		return
	}
	w := ps.world
	if r.entry(w.handle) != w || w.store.seeds[origin] == nil {
		return
	}
	delete(w.store.seeds, origin)
	r.log.Debug().Str("world", w.name()).Str("origin", origin).Msg("a kept origin's localStorage was set as its first page loaded")
	r.reseed(w)
}

// reseed has every page of the world the actor is on carry the world's
// seeds of the moment.
func (r *run) reseed(w *world) {
	for target, ps := range r.pages {
		if ps.world == w && ps.id != "" && (ps.script != "" || len(w.store.seeds) > 0) {
			r.prepare(w, target, func() {})
		}
	}
	w.publish()
}

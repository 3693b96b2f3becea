package storage

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// A kept origin's localStorage is set in a world's new context as the
// origin's first document loads there, before the page's own scripts run:
// each new page of a world with origins still to be seeded gets, before
// its client navigates it (the world's wall holds the client's
// navigation until the actor's PreparePage answers), a script of the
// room's that sets the keys of the origin it finds itself in, each one
// the page has not (a page quicker than the room's news of the origin's
// first document keeps what it wrote). It runs in the page's main world, first, leaving
// nothing behind (an isolated world of its own cost every document a V8
// context more: +14 ms against +8 ms for the main world on a page's load,
// measured on Chromium 156; and clients saw that context). Once a page's
// document of an origin is there, the origin is seeded and leaves every
// page's script. Measured on Chromium 156: a session must have Page
// enabled before a navigation starts for its script to run in that
// navigation's document (Page.enable sent while one is under way is
// answered only once it committed, too late), hence before the client's
// navigation goes. A page made straight at an origin's URL
// (Target.createTarget with that url, a popup) gets the origin's cookies
// at once and its localStorage from its next document.

// Restore sets the world's cookies into the context the actor has just
// made its own (its seeds planted: PlantSeeds): what must find them waits
// meanwhile (WaitsForRestore: a page's preparation, hence its navigation,
// and a read of the world's storage). It is under way from the call: the
// actor publishes the context and answers its waiters, then runs send,
// which sets the cookies. With no cookies to set it is over at once, and
// what waited for an earlier restore goes on in send.
func (r *Room) Restore(s *Store, context string) (send func()) {
	cookies := s.state.CDPCookies()
	seq, ready := s.restoring(len(cookies) > 0)
	return func() {
		for _, then := range ready {
			then()
		}
		if len(cookies) == 0 {
			return
		}
		params := map[string]any{"browserContextId": context, "cookies": cookies}
		r.host.Call("", "Storage.setCookies", params, func(_ json.RawMessage, err error) {
			if err != nil && r.host.Context(s.of) == context {
				r.log.Warn().Err(err).Str("world", s.of.Name()).Msg("the world's cookies were not restored")
			}
			for _, then := range s.restored(seq) {
				then()
			}
		})
	}
}

// PreparePage has a new page of the world (target) followed and carry
// the world's seeds of the moment (none: no script), then runs then. Its
// commands go pipelined on the page's session, which the browser takes
// in order: then waits for the last one's answer alone (two round trips
// with the attach, however many commands). The actor asks it once the
// world's cookies are in its context (WaitsForRestore).
func (r *Room) PreparePage(s *Store, target string, then func()) {
	context := r.host.Context(s.of)
	r.pageSession(s, target, func(session string, err error) {
		ps := r.pages[target]
		if err != nil || ps == nil || r.host.Context(s.of) != context {
			then()
			return
		}
		seeds := maps.Clone(s.seeds)
		if old := ps.script; old != "" {
			ps.script, ps.scripted = "", nil
			r.host.Call(session, "Page.removeScriptToEvaluateOnNewDocument", map[string]string{"identifier": old}, ignore)
		}
		if len(seeds) == 0 {
			last := "DOMStorage.enable" // again: its answer says the first one was taken
			if ps.pageOn {
				ps.pageOn, last = false, "Page.disable"
			}
			r.host.Call(session, last, nil, func(json.RawMessage, error) { then() })
			return
		}
		if !ps.pageOn {
			ps.pageOn = true
			r.host.Call(session, "Page.enable", nil, func(_ json.RawMessage, err error) {
				if err != nil {
					ps.pageOn = false
				}
			})
		}
		params := map[string]any{"source": seedScript(seeds)}
		r.host.Call(session, "Page.addScriptToEvaluateOnNewDocument", params, func(result json.RawMessage, err error) {
			var res struct {
				Identifier string `json:"identifier"`
			}
			if err == nil && json.Unmarshal(result, &res) == nil && res.Identifier != "" {
				ps.script, ps.scripted = res.Identifier, seeds
			}
			then()
		})
	})
}

// Navigate sends a new page of the world, opened blank, to url once it is
// prepared (PreparePage): its first document of a kept origin gets the
// origin's localStorage. then hears whether the room has a session on
// the page to send it with.
func (r *Room) Navigate(s *Store, target, url string, then func(error)) {
	r.PreparePage(s, target, func() {
		r.pageSession(s, target, func(session string, err error) {
			if err == nil {
				r.host.Call(session, "Page.navigate", map[string]string{"url": url}, ignore)
			}
			then(err)
		})
	})
}

// ignore is the then of a command whose answer changes nothing.
func ignore(json.RawMessage, error) {}

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
func (r *Room) onNavigated(session string, raw json.RawMessage) {
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
	s := ps.world
	if r.host.Context(s.of) == "" || s.seeds[origin] == nil {
		return // closed, or gone from its browser: no seeds left (ContextGone)
	}
	delete(s.seeds, origin)
	r.log.Debug().Str("world", s.of.Name()).Str("origin", origin).Msg("a kept origin's localStorage was set as its first page loaded")
	r.reseed(s)
}

// reseed has every page of the world the room is on carry the world's
// seeds of the moment.
func (r *Room) reseed(s *Store) {
	for target, ps := range r.pages {
		if ps.world == s && ps.id != "" && (ps.script != "" || len(s.seeds) > 0) {
			r.PreparePage(s, target, func() {})
		}
	}
}

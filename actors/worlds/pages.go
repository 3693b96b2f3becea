package worlds

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The actor's own sessions on the worlds' pages (flatten, on its
// connection): it reads their origins' localStorage there, and sets a
// kept origin's localStorage as the page's first document of it loads
// (storage_seed.go). A page session lasts as long as its page or the
// connection; nothing is enabled on it but while a seed is under way.

// pageSession is the actor's session on one page.
type pageSession struct {
	id      string                // "" while attaching
	waiters []func(string, error) // who waits for the attach
	// world is the world whose page it is (nil: a page of the user's
	// browser being read); its localStorage changes are the world's.
	world *world
	// While the world has seeds: Page is enabled, and the script of
	// identifier script carries the seeds scripted.
	pageOn   bool
	script   string
	scripted map[string]map[string]string
}

// pageSession has the actor attached to the target, a page of w (nil:
// of no world), then calls then with its session id. A world's page tells
// the actor of its localStorage changes (DOMStorage events) from then on.
func (r *run) pageSession(w *world, target string, then func(string, error)) {
	ps := r.pages[target]
	if ps != nil && ps.id != "" {
		then(ps.id, nil)
		return
	}
	if ps != nil {
		ps.waiters = append(ps.waiters, then)
		return
	}
	ps = &pageSession{waiters: []func(string, error){then}, world: w}
	r.pages[target] = ps
	r.call("Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, func(a answer) {
		var res struct {
			SessionID string `json:"sessionId"`
		}
		err := a.err()
		if err == nil {
			if json.Unmarshal(a.Result, &res) != nil || res.SessionID == "" {
				err = fmt.Errorf("no sessionId in the answer to Target.attachToTarget")
			}
		}
		if r.pages[target] != ps { // the connection went meanwhile
			err = ErrBrowserGone
		} else if err != nil {
			delete(r.pages, target)
		}
		ps.id = res.SessionID
		settle := func(err error) {
			waiters := ps.waiters
			ps.waiters = nil
			for _, w := range waiters {
				w(res.SessionID, err)
			}
		}
		if err != nil || w == nil {
			settle(err)
			return
		}
		// Its localStorage changes from now on are the world's: sent before
		// anything else on the session, so what waits for a later command's
		// answer (prepare) finds it enabled.
		r.callOn(ps.id, "DOMStorage.enable", nil, func(answer) {})
		if w.guard != nil {
			r.callOn(ps.id, "Fetch.enable", map[string]any{"patterns": localLoads}, func(answer) {})
		}
		settle(nil)
	})
}

// pageOfSession is the page session of id; nil: none.
func (r *run) pageOfSession(id string) *pageSession {
	for _, ps := range r.pages {
		if ps.id == id {
			return ps
		}
	}
	return nil
}

// errPageGone fails a command on a page session that detached first.
var errPageGone = errors.New("the page's session ended before it answered")

// pageGone forgets the session of a page that is gone.
func (r *run) pageGone(sessionID string) {
	for target, ps := range r.pages {
		if ps.id == sessionID {
			delete(r.pages, target)
		}
	}
	// Chromium drops the commands a detached session had not answered:
	// they fail now rather than at callTimeout (a read of the world's
	// storage waiting on a tab a client closed).
	for id, c := range r.pending {
		if c.session == sessionID {
			delete(r.pending, id)
			c.then(failed(errPageGone))
		}
	}
}

// keepPages forgets the sessions of the targets that are not among live.
func (r *run) keepPages(live []Target) {
	alive := make(map[string]bool, len(live))
	for _, t := range live {
		alive[t.ID] = true
	}
	for target, ps := range r.pages {
		if !alive[target] && ps.id != "" {
			delete(r.pages, target)
		}
	}
}

// onEvent acts on an event of the browser (eventsRead).
func (r *run) onEvent(ev sessionEvent) {
	switch ev.method {
	case "DOMStorage.domStorageItemAdded", "DOMStorage.domStorageItemUpdated", "DOMStorage.domStorageItemRemoved", "DOMStorage.domStorageItemsCleared":
		r.onStorageChanged(ev.sessionID, ev.method, ev.params)
	case "Page.frameNavigated":
		r.onNavigated(ev.sessionID, ev.params)
	case "Fetch.requestPaused":
		r.onLocalLoad(ev.sessionID, ev.params)
	case "Target.detachedFromTarget":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(ev.params, &p) == nil {
			r.pageGone(p.SessionID)
		}
	}
}

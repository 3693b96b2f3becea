package storage

import (
	"encoding/json"
	"errors"
)

// The room's own sessions on the worlds' pages (flatten, on the actor's
// connection): it reads their origins' localStorage there, and sets a
// kept origin's localStorage as the page's first document of it loads
// (seed.go). A page session lasts as long as its page or the connection;
// nothing is enabled on it but while a seed is under way.

// pageSession is the room's session on one page.
type pageSession struct {
	id      string                // "" while attaching
	waiters []func(string, error) // who waits for the attach
	// world is the storage of the world whose page it is (nil: a page of
	// the user's browser being read); its localStorage changes are the
	// world's.
	world *Store
	// While the world has seeds: Page is enabled, and the script of
	// identifier script carries the seeds scripted.
	pageOn   bool
	script   string
	scripted map[string]map[string]string
}

// pageSession has the room attached to the target, a page of s's world
// (nil: of no world), then calls then with its session id. A world's page
// tells the room of its localStorage changes (DOMStorage events) from
// then on.
func (r *Room) pageSession(s *Store, target string, then func(string, error)) {
	ps := r.pages[target]
	if ps != nil && ps.id != "" {
		then(ps.id, nil)
		return
	}
	if ps != nil {
		ps.waiters = append(ps.waiters, then)
		return
	}
	ps = &pageSession{waiters: []func(string, error){then}, world: s}
	r.pages[target] = ps
	r.host.Call("", "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, func(result json.RawMessage, err error) {
		var res struct {
			SessionID string `json:"sessionId"`
		}
		if err == nil {
			if json.Unmarshal(result, &res) != nil || res.SessionID == "" {
				err = errors.New("no sessionId in the answer to Target.attachToTarget")
			}
		}
		switch {
		case r.pages[target] != ps: // the connection went meanwhile (Disconnected)
			err = ErrBrowserGone
		case err != nil:
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
		if err != nil || s == nil {
			settle(err)
			return
		}
		// Its localStorage changes from now on are the world's: sent before
		// anything else on the session, so what waits for a later command's
		// answer (PreparePage) finds it enabled.
		r.host.Call(ps.id, "DOMStorage.enable", nil, ignore)
		r.host.Attached(s.of, ps.id)
		settle(nil)
	})
}

// pageOfSession is the page session of id; nil: none.
func (r *Room) pageOfSession(id string) *pageSession {
	for _, ps := range r.pages {
		if ps.id == id {
			return ps
		}
	}
	return nil
}

// WorldOf is the world of the page the room's session id is on; nil: no
// world's (a page of the user's browser), or no session of the room's.
func (r *Room) WorldOf(session string) World {
	if ps := r.pageOfSession(session); ps != nil && ps.world != nil {
		return ps.world.of
	}
	return nil
}

// PageGone forgets the session of a page that is gone (the browser's
// Target.detachedFromTarget).
func (r *Room) PageGone(session string) {
	for target, ps := range r.pages {
		if ps.id == session {
			delete(r.pages, target)
		}
	}
}

// keepPages forgets the sessions of the targets that are not among live.
func (r *Room) keepPages(live []Target) {
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

// Events are the browser's events the room acts on (OnEvent), on its
// page sessions: a change of a world's page's localStorage (live.go), the
// commit of a page that carries seeds (seed.go).
var Events = []string{
	"DOMStorage.domStorageItemAdded", "DOMStorage.domStorageItemUpdated",
	"DOMStorage.domStorageItemRemoved", "DOMStorage.domStorageItemsCleared",
	"Page.frameNavigated",
}

// OnEvent acts on an event of Events that came on the room's page session.
func (r *Room) OnEvent(session, method string, params json.RawMessage) {
	switch method {
	case "DOMStorage.domStorageItemAdded", "DOMStorage.domStorageItemUpdated", "DOMStorage.domStorageItemRemoved", "DOMStorage.domStorageItemsCleared":
		r.onStorageChanged(session, method, params)
	case "Page.frameNavigated":
		r.onNavigated(session, params)
	}
}

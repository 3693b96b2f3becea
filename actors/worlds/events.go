package worlds

import (
	"encoding/json"
	"errors"

	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// eventsRead are the events the actor acts on: the storage room's
// (storage.Events: a change of a world's page's localStorage, the commit
// of a page that carries seeds), a guarded world's page loading a local
// file (doors.go), a page session gone. The others are not its business
// (it asks what it needs to know).
var eventsRead = func() map[string]bool {
	read := map[string]bool{"Target.detachedFromTarget": true, "Fetch.requestPaused": true}
	for _, method := range storage.Events {
		read[method] = true
	}
	return read
}()

// onEvent acts on an event of the browser (eventsRead).
func (r *run) onEvent(ev sessionEvent) {
	switch ev.method {
	case "Fetch.requestPaused":
		r.onLocalLoad(ev.sessionID, ev.params)
	case "Target.detachedFromTarget":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(ev.params, &p) == nil {
			r.storage.PageGone(p.SessionID)
			r.failSession(p.SessionID)
		}
	default:
		r.storage.OnEvent(ev.sessionID, ev.method, ev.params)
	}
}

// errPageGone fails a command on a page session that detached first.
var errPageGone = errors.New("the page's session ended before it answered")

// failSession fails the commands a page session that detached had not
// answered: Chromium drops them, so they fail now rather than at
// callTimeout (a read of the world's storage waiting on a tab a client
// closed).
func (r *run) failSession(sessionID string) {
	for id, c := range r.pending {
		if c.session == sessionID {
			delete(r.pending, id)
			c.then(failed(errPageGone))
		}
	}
}

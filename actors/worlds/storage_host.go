package worlds

import (
	"encoding/json"

	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// storageHost is the run as the storage room sees it (storage.Host): the
// one way the room reaches the actor's connection and its book. The
// worlds it is handed back are the book's entries the actor gave it.
type storageHost struct{ r *run }

func (h storageHost) Call(session, method string, params any, then func(json.RawMessage, error)) {
	h.r.callOn(session, method, params, func(a answer) { then(a.Result, a.err()) })
}

func (h storageHost) Targets(then func([]storage.Target, error)) {
	h.r.targets(then)
}

// Context is "" for a world no longer in the book: every removal from the
// book is followed by the world's forget, which clears its context.
func (h storageHost) Context(w storage.World) string {
	if e := w.(*world); h.r.current(e) {
		return e.context
	}
	return ""
}

// Attached has a guarded world's page refuse local files (doors.go), right
// after the storage room's DOMStorage.enable on its session there.
func (h storageHost) Attached(w storage.World, session string) {
	if w.(*world).guard != nil {
		h.r.callOn(session, "Fetch.enable", map[string]any{"patterns": localLoads}, func(answer) {})
	}
}

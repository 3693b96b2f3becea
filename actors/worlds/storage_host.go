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
	h.r.targets(func(all []Target, err error) {
		var out []storage.Target
		for _, t := range all {
			out = append(out, storage.Target(t))
		}
		then(out, err)
	})
}

func (h storageHost) Context(w storage.World) string {
	if e := w.(*world); h.r.current(e) {
		return e.context
	}
	return ""
}

// Attached has a guarded world's page refuse local files (doors.go) before
// anything else is sent on the storage room's session there.
func (h storageHost) Attached(w storage.World, session string) {
	if w.(*world).guard != nil {
		h.r.callOn(session, "Fetch.enable", map[string]any{"patterns": localLoads}, func(answer) {})
	}
}

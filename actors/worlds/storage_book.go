package worlds

import (
	"time"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// worldStorage is a world's storage as the actor knows it. Only the
// actor's goroutine touches it; a state in it is never changed in place
// (it is replaced), so one handed to the profiles is the profiles'.
type worldStorage struct {
	state storagestate.State // what the world has: read from its context, kept, or seeded
	// kept: saved to the profiles (a named world whose profile was
	// readable); saved is what was last handed to them.
	kept  bool
	saved []byte
	// closing: its last read before its close is under way.
	closing bool
	// A read of its context is under way (the readSeq-th, since
	// readSince); readers wait for it.
	reading   bool
	readSeq   int
	readSince time.Time
	readers   []func()
	// seeds is the localStorage each kept origin is still to get in the
	// world's context of the moment, set as the origin's first document
	// there loads (storage_seed.go).
	seeds map[string]map[string]string
}

func newWorldStorage(string) worldStorage {
	return worldStorage{state: emptyState(), seeds: map[string]map[string]string{}}
}

func emptyState() storagestate.State {
	return storagestate.State{Cookies: []storagestate.Cookie{}, Origins: []storagestate.Origin{}}
}

// contextGone drops the seeds a context that is gone was still to get:
// the next context gets the whole state again.
func (s *worldStorage) contextGone() { clear(s.seeds) }

// plantSeeds has every origin of the state with localStorage wait for its
// first document in a new context.
func (s *worldStorage) plantSeeds() {
	clear(s.seeds)
	for _, o := range s.state.Origins {
		if len(o.LocalStorage) > 0 {
			s.seeds[o.Origin] = itemsOf(o)
		}
	}
}

func itemsOf(o storagestate.Origin) map[string]string {
	items := make(map[string]string, len(o.LocalStorage))
	for _, it := range o.LocalStorage {
		items[it.Name] = it.Value
	}
	return items
}

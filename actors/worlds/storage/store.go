package storage

import (
	"time"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// Store is one world's storage, in the actor's book beside the world it
// is of. Only the actor's goroutine touches it; a state in it is never
// changed in place (it is replaced), so one handed to the profiles is the
// profiles'.
type Store struct {
	of    World
	state storagestate.State // what the world has: read from its context, kept, or seeded
	// kept: saved to the profiles (a named world whose profile was
	// readable); saved is what was last handed to them (or read from
	// them), once there is one.
	kept     bool
	saved    storagestate.State
	hasSaved bool
	// lastCookies are the cookies the last read found, as the browser
	// sent them (cookiesRead) and as kept: the same answer is not decoded
	// again.
	cookiesRead []byte
	lastCookies []storagestate.Cookie
	// closing: its last read before its close is under way.
	closing bool
	// A read of its context is under way (the readSeq-th, since
	// readSince); readers wait for it.
	reading   bool
	readSeq   int
	readSince time.Time
	readers   []func()
	// readQuiet: no tick's read before it (readEnds).
	readQuiet time.Time
	// While its cookies are being set into its new context (the
	// restoreSeq-th restore), what must find them waits in afterRestore.
	restoreSeq   int
	restoreOn    bool
	afterRestore []func()
	// seeds is the localStorage each kept origin is still to get in the
	// world's context of the moment, set as the origin's first document
	// there loads (seed.go).
	seeds map[string]map[string]string
}

// NewStore is the storage of a world the actor makes: empty until its
// profile is read (LoadProfile) or it is given a seed.
func NewStore(of World) *Store {
	return &Store{of: of, state: Empty(), seeds: map[string]map[string]string{}}
}

// Empty is a state with nothing in it, its lists not nil.
func Empty() storagestate.State {
	return storagestate.State{Cookies: []storagestate.Cookie{}, Origins: []storagestate.Origin{}}
}

// State is what the world has: read from its context, kept, or seeded.
func (s *Store) State() storagestate.State { return s.state }

// Kept says the world's storage is handed to the profiles: a named world
// whose profile was readable (LoadProfile), until it is forgotten.
func (s *Store) Kept() bool { return s.kept }

// Unkeep stops the saves of a world being forgotten: nothing of it is
// handed to the profiles again.
func (s *Store) Unkeep() { s.kept = false }

// ClosingRead says a kept world being closed is to be read a last time
// first; once: the close that follows that read says false.
func (s *Store) ClosingRead() bool {
	if !s.kept || s.closing {
		return false
	}
	s.closing = true
	return true
}

// Seeding says origins of the world are still to get their localStorage
// in its context: a new page is prepared before it goes to one.
func (s *Store) Seeding() bool { return len(s.seeds) > 0 }

// readBegins marks a read of the world's context begun at now.
func (s *Store) readBegins(now time.Time) {
	s.reading, s.readSince = true, now
	s.readSeq++
}

// readEnds ends the read under way at now, answered or expired. The
// world's next tick read waits as long as this one took: a browser too
// busy to answer in time gets fewer reads, not a new one at each tick
// beside the unanswered calls of the last (a read is 3 CDP calls or
// more; 20 worlds read every 1.5 s under the soak's load expired 1 164
// times in an hour).
func (s *Store) readEnds(now time.Time) {
	if s.reading {
		s.readQuiet = now.Add(now.Sub(s.readSince))
	}
	s.reading = false
}

// tickReadDue: a tick may begin a read of the world at now. Fresh reads
// (a client gone, a close, an export, the stop) do not ask.
func (s *Store) tickReadDue(now time.Time) bool { return !now.Before(s.readQuiet) }

// ContextGone drops the seeds a context that is gone was still to get:
// the next context gets the whole state again.
func (s *Store) ContextGone() { clear(s.seeds) }

// restoring starts a restore of the world's cookies and answers its
// number; with no cookies to set it is over at once, and what waited for
// an earlier one is ready.
func (s *Store) restoring(cookies bool) (seq int, ready []func()) {
	s.restoreSeq++
	s.restoreOn = cookies
	if !cookies {
		ready = s.flushAfterRestore()
	}
	return s.restoreSeq, ready
}

// restored ends restore seq, if it is the latest, and answers what waited
// for it.
func (s *Store) restored(seq int) []func() {
	if seq != s.restoreSeq || !s.restoreOn {
		return nil
	}
	s.restoreOn = false
	return s.flushAfterRestore()
}

func (s *Store) flushAfterRestore() []func() {
	waiting := s.afterRestore
	s.afterRestore = nil
	return waiting
}

// WaitsForRestore keeps then for the end of the restore under way, if
// one is: then runs once the world's cookies are in its context.
func (s *Store) WaitsForRestore(then func()) bool {
	if !s.restoreOn {
		return false
	}
	s.afterRestore = append(s.afterRestore, then)
	return true
}

// PlantSeeds has every origin of the state with localStorage wait for its
// first document in a new context: the actor plants them as it makes the
// context the world's, before anyone hears of it (its first page is
// prepared with them).
func (s *Store) PlantSeeds() {
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

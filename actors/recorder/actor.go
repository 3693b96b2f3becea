package recorder

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Spec configures the recorder.
type Spec struct {
	// Dir holds the recordings (DirIn of the state directory); made 0700.
	Dir string
	// All records every world (serve --record); a world's own switch
	// (a world request's record) records it, or not, whatever All says.
	All bool
	// WorldCap bounds each world's recording, TotalCap all of them; the
	// oldest part goes first. 0: the store's defaults (200 MB, 2 GB).
	WorldCap, TotalCap int64
	// Passing says a world's name never comes back (a fresh agent-…
	// world): its recording is deleted when it closes, unless Keep.
	Passing func(world string) bool
	Keep    bool
	// Notes is how many notes (actions, marks) may wait for the actor
	// before they are dropped (and counted); 0: DefaultNotes.
	Notes int
	Log   zerolog.Logger
}

// DefaultNotes notes wait for the actor at most.
const DefaultNotes = 8192

// DirIn is where the recordings of a state directory are.
func DirIn(stateDir string) string { return filepath.Join(stateDir, "recordings") }

// Errors of the recorder's requests.
var (
	// ErrNotRecorded: nothing is kept of the world.
	ErrNotRecorded = worldapi.ErrNotRecorded
	// ErrOff: the recorder is not running (its store could not be opened).
	ErrOff = errors.New("the recorder is not running")
)

// Actor is the recorder: it owns the store, every instance's recording
// sessions and the record switches. The relays' taps and the other
// features' hooks hand it notes through a queue they never wait on.
type Actor struct {
	spec    Spec
	mailbox chan request
	notes   chan note
	dropped atomic.Int64 // notes dropped: the actor was behind
	// recorded is the set of recorded worlds, published by the actor
	// whenever it changes; the taps and Describe read it without asking.
	recorded atomic.Pointer[map[string]bool]
}

// New makes the recorder; it records nothing until served.
func New(spec Spec) *Actor {
	if spec.Notes <= 0 {
		spec.Notes = DefaultNotes
	}
	if spec.Passing == nil {
		spec.Passing = func(string) bool { return false }
	}
	a := &Actor{spec: spec, mailbox: make(chan request), notes: make(chan note, spec.Notes)}
	a.recorded.Store(&map[string]bool{})
	return a
}

// String names the actor in the supervisor's logs.
func (a *Actor) String() string { return "recorder" }

// Recorded says the world called name is recorded now.
func (a *Actor) Recorded(name string) bool { return (*a.recorded.Load())[name] }

// tick paces the screencasts' acknowledgements and flushes what was
// written, so a trace read now has it.
const tick = 50 * time.Millisecond

// flushEvery bounds what a kill of the coordinator loses.
const flushEvery = time.Second

// Serve runs the recorder until ctx is done: its store open, its
// instances followed.
func (a *Actor) Serve(ctx context.Context) error {
	st, err := store.Open(store.Spec{Dir: a.spec.Dir, WorldCap: a.spec.WorldCap, TotalCap: a.spec.TotalCap, Log: a.spec.Log})
	if err != nil {
		a.spec.Log.Error().Err(err).Msg("the recorder cannot keep recordings: no world is recorded")
		return a.serveOff(ctx, err)
	}
	r := newRun(ctx, a, st)
	defer r.stop()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-a.mailbox:
			r.handle(m)
		case n := <-a.notes:
			r.note(n)
		case now := <-ticker.C:
			r.tick(now)
		}
	}
}

// serveOff answers every request with why the recorder is off, so that
// nothing waits on it.
func (a *Actor) serveOff(ctx context.Context, why error) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-a.mailbox:
			refuse(m, errors.Join(ErrOff, why))
		case <-a.notes:
		}
	}
}

// ask sends a request and waits for its answer.
func ask[T any](ctx context.Context, a *Actor, make func(chan T) request) (T, error) {
	return actor.Ask(ctx, a.mailbox, make)
}

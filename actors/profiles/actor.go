// Package profiles is the ProfilesActor: the room that owns the files of
// the kept worlds, one Playwright storage state per named world in a
// private directory (0700, files 0600). The WorldsActor hands it a world's
// storage as it changes; the actor writes it soon after, off the worlds'
// and the clients' way, the newest state of a world winning.
package profiles

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Spec configures a ProfilesActor.
type Spec struct {
	// Dir holds the profiles; Prepare it first.
	Dir string
	// WriteDelay gathers a world's changes into one write; 0: DefaultWriteDelay.
	WriteDelay time.Duration
	Log        zerolog.Logger
}

// DefaultWriteDelay: a world's storage is read every 1.5 s at most; a
// kill loses what changed in the last read's interval and this.
const DefaultWriteDelay = 200 * time.Millisecond

// Kept is one kept world as listed: its name, the size of its storage
// file and when it was last saved (zero: only its policy is kept yet), and
// the policy kept with it (nil: none, or a file that cannot be read).
type Kept struct {
	Name   string
	Bytes  int64
	Saved  time.Time
	Policy *worldapi.Policy
}

// Errors of the room.
var (
	// ErrNotMine: a profile file another user owns, or that is not a file.
	ErrNotMine = errors.New("the profile is not a file of yours")
	// ErrUnreadable: a profile file that is not a storage state.
	ErrUnreadable = errors.New("the profile file is not a storage state")
)

// Actor is the ProfilesActor.
type Actor struct {
	spec    Spec
	mailbox chan request
	// known is what the actor last read or wrote of each file, so that a
	// world made again is not parsed again from an unchanged file. Only
	// Serve's goroutine touches it (the writer says what it wrote).
	known map[string]knownFile
}

// New makes an actor over spec.Dir; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.WriteDelay <= 0 {
		spec.WriteDelay = DefaultWriteDelay
	}
	return &Actor{spec: spec, mailbox: make(chan request), known: map[string]knownFile{}}
}

func (a *Actor) String() string { return "profiles" }

// Dir is where the profiles are.
func (a *Actor) Dir() string { return a.spec.Dir }

// Load answers the kept storage of the world called name (the newest
// handed in, written or not); found is false when none is kept.
func (a *Actor) Load(ctx context.Context, name string) (st storagestate.State, found bool, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan loaded) request { return load{name: name, reply: r} })
	if err != nil {
		return storagestate.State{}, false, err
	}
	return got.state, got.found, got.err
}

// Save hands in the world's storage of the moment, written soon.
func (a *Actor) Save(ctx context.Context, name string, st storagestate.State) error {
	return actor.Send(ctx, a.mailbox, request(save{name: name, state: st}))
}

// Forget deletes the world's profile (its storage and its policy), and
// what was handed in and not yet written; forgot says there was one.
func (a *Actor) Forget(ctx context.Context, name string) (forgot bool, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan forgotten) request { return forget{name: name, reply: r} })
	if err != nil {
		return false, err
	}
	return got.forgot, got.err
}

// List answers every kept world, by name.
func (a *Actor) List(ctx context.Context) ([]Kept, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan listed) request { return list{reply: r} })
	if err != nil {
		return nil, err
	}
	return got.kept, got.err
}

// Flush writes what was handed in and answers once it is on disk.
func (a *Actor) Flush(ctx context.Context) error {
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) request { return flush{reply: r} })
	if err != nil {
		return err
	}
	return errc
}

// request is what the actor's mailbox carries: a closed set, the types
// below and the policy's (policy.go) and no others, each with its case in
// serving.on.
type request interface{ isProfilesRequest() }

func (load) isProfilesRequest()       {}
func (save) isProfilesRequest()       {}
func (forget) isProfilesRequest()     {}
func (list) isProfilesRequest()       {}
func (flush) isProfilesRequest()      {}
func (loadPolicy) isProfilesRequest() {}
func (savePolicy) isProfilesRequest() {}

type (
	load struct {
		name  string
		reply chan loaded
	}
	loaded struct {
		state storagestate.State
		found bool
		err   error
	}
	save struct {
		name  string
		state storagestate.State
	}
	forget struct {
		name  string
		reply chan forgotten
	}
	forgotten struct {
		forgot bool
		err    error
	}
	list   struct{ reply chan listed }
	flush  struct{ reply chan error }
	listed struct {
		kept []Kept
		err  error
	}
)

// Serve runs the actor until ctx is done; what was handed in and not
// written is written then. Files are written by a writer of its own, so
// that the actor answers (a Save, a Load) while a write waits on the disk:
// the WorldsActor, and the clients behind it, never wait for a disk.
func (a *Actor) Serve(ctx context.Context) error {
	s := &serving{a: a, pending: map[string]storagestate.State{}, due: time.NewTimer(time.Hour),
		writes: make(chan map[string]storagestate.State), written: make(chan []written)}
	s.due.Stop()
	writer := make(chan struct{})
	go func() { defer close(writer); s.write() }()
	defer func() {
		s.stop()
		close(s.writes)
		<-writer
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.due.C:
			s.startWrite()
		case w := <-s.written:
			s.onWritten(w)
		case m := <-a.mailbox:
			s.on(m)
		}
	}
}

// serving is the actor's state while it serves; only Serve's goroutine
// touches it, but for write, the writer's loop.
type serving struct {
	a       *Actor
	pending map[string]storagestate.State // handed in, not yet being written
	due     *time.Timer                   // when pending is written
	// inFlight is what the writer is writing (nil: it is idle); what must
	// see it written (a flush, a list, a forget of a world in it) waits.
	inFlight map[string]storagestate.State
	waiting  []request
	errs     []error // of the writes since the first waiting flush
	writes   chan map[string]storagestate.State
	written  chan []written
}

// written is one file's write: what the file now holds, or why not.
type written struct {
	name string
	file knownFile
	err  error
}

func (s *serving) on(m request) {
	switch m := m.(type) {
	case save:
		if len(s.pending) == 0 && s.inFlight == nil {
			s.due.Reset(s.a.spec.WriteDelay)
		}
		s.pending[m.name] = m.state
	case load:
		if st, ok := s.pending[m.name]; ok {
			m.reply <- loaded{state: st, found: true}
			return
		}
		if st, ok := s.inFlight[m.name]; ok {
			m.reply <- loaded{state: st, found: true}
			return
		}
		st, found, err := s.a.read(m.name)
		m.reply <- loaded{state: st, found: found, err: err}
	case forget:
		delete(s.pending, m.name)
		if _, ok := s.inFlight[m.name]; ok {
			s.waiting = append(s.waiting, m) // its file is being written: removed once it is
			return
		}
		delete(s.a.known, m.name)
		forgot, err := s.a.remove(m.name)
		m.reply <- forgotten{forgot: forgot, err: err}
	case loadPolicy, savePolicy:
		s.a.onPolicy(m)
	case list, flush: // once everything handed in is on disk: sizes and times as of now
		if len(s.pending) == 0 && s.inFlight == nil {
			s.answer(m, s.errs)
			return
		}
		s.waiting = append(s.waiting, m)
		s.startWrite()
	default:
		actor.Unknown(s.a.spec.Log, s.a.String(), m)
	}
}

// answer answers a list or a flush now that nothing is left to write.
func (s *serving) answer(m request, errs []error) {
	switch m := m.(type) {
	case list:
		kept, err := s.a.list()
		m.reply <- listed{kept: kept, err: err}
	case flush:
		m.reply <- errors.Join(errs...)
	default:
		actor.Unknown(s.a.spec.Log, s.a.String(), m)
	}
}

// startWrite hands what is pending to the writer, if it is idle.
func (s *serving) startWrite() {
	if s.inFlight != nil || len(s.pending) == 0 {
		return
	}
	s.inFlight, s.pending = s.pending, map[string]storagestate.State{}
	for name := range s.inFlight {
		delete(s.a.known, name)
	}
	s.writes <- s.inFlight
}

// onWritten takes the writer's news, answers what waited for it, and goes
// on with what was handed in meanwhile.
func (s *serving) onWritten(files []written) {
	for _, w := range files {
		if w.err != nil {
			s.errs = append(s.errs, w.err)
			continue
		}
		s.a.known[w.name] = w.file
	}
	s.inFlight = nil
	waiting := s.waiting
	s.waiting = nil
	flushing := false
	for _, m := range waiting {
		switch m.(type) {
		case list, flush:
			if len(s.pending) > 0 {
				s.waiting, flushing = append(s.waiting, m), true
				continue
			}
			s.answer(m, s.errs)
		default:
			s.on(m)
		}
	}
	if !flushing {
		s.errs = nil
	}
	switch {
	case flushing:
		s.startWrite()
	case len(s.pending) > 0:
		s.due.Reset(s.a.spec.WriteDelay)
	}
}

// write is the writer's loop: each batch written, then told.
func (s *serving) write() {
	for batch := range s.writes {
		s.written <- s.a.writeAll(batch)
	}
}

// stop writes what is left when the actor stops, and answers who waits.
func (s *serving) stop() {
	s.due.Stop()
	if s.inFlight != nil {
		s.onWritten(<-s.written)
	}
	for _, w := range s.a.writeAll(s.pending) {
		if w.err != nil {
			s.errs = append(s.errs, w.err)
		}
	}
	clear(s.pending)
	for _, m := range s.waiting {
		s.on(m)
	}
}

// path is the file of the world called name (a checked world name: no
// separators).
func (a *Actor) path(name string) string { return filepath.Join(a.spec.Dir, name+fileSuffix) }

const fileSuffix = ".storage-state.json"

// writeAll writes every state of a batch, and says what each file holds
// now. It touches nothing of the actor's: the writer runs it.
func (a *Actor) writeAll(batch map[string]storagestate.State) []written {
	var out []written
	for name, st := range batch {
		file, err := a.write(name, st)
		if err != nil {
			// Never the values: a profile holds sign-ins.
			a.spec.Log.Error().Err(err).Str("world", name).Msg("the world's storage was not saved")
		}
		out = append(out, written{name: name, file: file, err: err})
	}
	return out
}

// ErrNoDir: the profiles directory is gone or not the user's.
var ErrNoDir = errors.New("no profiles directory")

// remove deletes the world's storage and policy files.
func (a *Actor) remove(name string) (bool, error) {
	storage, err := a.removeMine(a.path(name))
	if err != nil {
		return false, err
	}
	policy, err := a.removeMine(a.policyPath(name))
	if err != nil {
		return storage, err
	}
	if storage || policy {
		a.spec.Log.Info().Str("world", name).Bool("policy", policy).Msg("the world's profile was deleted")
	}
	return storage || policy, nil
}

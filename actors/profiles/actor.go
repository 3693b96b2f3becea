// Package profiles is the ProfilesActor: the room that owns the files of
// the kept worlds, one Playwright storage state per named world in a
// private directory (0700, files 0600). The WorldsActor hands it a world's
// storage as it changes; the actor writes it soon after, off the worlds'
// and the clients' way, the newest state of a world winning.
package profiles

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
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

// Kept is one kept world as listed: its name, the size of its file and
// when it was last saved.
type Kept struct {
	Name  string
	Bytes int64
	Saved time.Time
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
	mailbox chan any
	// known is what the actor last read or wrote of each file, so that a
	// world made again is not parsed again from an unchanged file. Only
	// Serve's goroutine touches it.
	known map[string]knownFile
}

// New makes an actor over spec.Dir; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.WriteDelay <= 0 {
		spec.WriteDelay = DefaultWriteDelay
	}
	return &Actor{spec: spec, mailbox: make(chan any), known: map[string]knownFile{}}
}

func (a *Actor) String() string { return "profiles" }

// Dir is where the profiles are.
func (a *Actor) Dir() string { return a.spec.Dir }

// Load answers the kept storage of the world called name (the newest
// handed in, written or not); found is false when none is kept.
func (a *Actor) Load(ctx context.Context, name string) (st storagestate.State, found bool, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan loaded) any { return load{name: name, reply: r} })
	if err != nil {
		return storagestate.State{}, false, err
	}
	return got.state, got.found, got.err
}

// Save hands in the world's storage of the moment, written soon.
func (a *Actor) Save(ctx context.Context, name string, st storagestate.State) error {
	return actor.Send(ctx, a.mailbox, save{name: name, state: st})
}

// Forget deletes the world's profile, and what was handed in and not yet
// written; forgot says there was one.
func (a *Actor) Forget(ctx context.Context, name string) (forgot bool, err error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan forgotten) any { return forget{name: name, reply: r} })
	if err != nil {
		return false, err
	}
	return got.forgot, got.err
}

// List answers every kept world, by name.
func (a *Actor) List(ctx context.Context) ([]Kept, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan listed) any { return list{reply: r} })
	if err != nil {
		return nil, err
	}
	return got.kept, got.err
}

// Flush writes what was handed in and answers once it is on disk.
func (a *Actor) Flush(ctx context.Context) error {
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) any { return flush{reply: r} })
	if err != nil {
		return err
	}
	return errc
}

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
// written is written then.
func (a *Actor) Serve(ctx context.Context) error {
	pending := map[string]storagestate.State{}
	due := time.NewTimer(time.Hour)
	due.Stop()
	defer func() { a.writeAll(pending) }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-due.C:
			a.writeAll(pending)
		case m := <-a.mailbox:
			switch m := m.(type) {
			case save:
				if len(pending) == 0 {
					due.Reset(a.spec.WriteDelay)
				}
				pending[m.name] = m.state
			case load:
				if st, ok := pending[m.name]; ok {
					m.reply <- loaded{state: st, found: true}
					continue
				}
				st, found, err := a.read(m.name)
				m.reply <- loaded{state: st, found: found, err: err}
			case forget:
				delete(pending, m.name)
				delete(a.known, m.name)
				forgot, err := a.remove(m.name)
				m.reply <- forgotten{forgot: forgot, err: err}
			case list:
				a.writeAll(pending) // sizes and times as of now
				kept, err := a.list()
				m.reply <- listed{kept: kept, err: err}
			case flush:
				m.reply <- a.writeAll(pending)
			}
		}
	}
}

// path is the file of the world called name (a checked world name: no
// separators).
func (a *Actor) path(name string) string { return filepath.Join(a.spec.Dir, name+fileSuffix) }

const fileSuffix = ".storage-state.json"

// writeAll writes every pending state and empties pending.
func (a *Actor) writeAll(pending map[string]storagestate.State) error {
	var errs []error
	for name, st := range pending {
		if err := a.write(name, st); err != nil {
			errs = append(errs, err)
			// Never the values: a profile holds sign-ins.
			a.spec.Log.Error().Err(err).Str("world", name).Msg("the world's storage was not saved")
		}
	}
	clear(pending)
	return errors.Join(errs...)
}

// ErrNoDir: the profiles directory is gone or not the user's.
var ErrNoDir = errors.New("no profiles directory")

func (a *Actor) remove(name string) (bool, error) {
	p := a.path(name)
	info, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if info.Mode()&os.ModeSymlink != 0 || !state.Mine(p) {
		return false, fmt.Errorf("%w: %s", ErrNotMine, p)
	}
	if err := os.Remove(p); err != nil {
		return false, err
	}
	a.spec.Log.Info().Str("world", name).Msg("the world's profile was deleted")
	return true, nil
}

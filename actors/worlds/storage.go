package worlds

import (
	"context"
	"errors"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A world's storage: its cookies and each origin's localStorage, read
// from its context as they change, restored into every context it gets
// (a new browser, a new coordinator), and for a kept world (every named
// world but a fresh agent-… one) kept on disk by the ProfilesActor. The
// storage room (actors/worlds/storage) does that work; here are the
// requests that reach it through the actor (storage_requests.go).

// Profiles is the room that keeps the kept worlds' storage on disk (the
// ProfilesActor), and their network policies (kept_guard.go); nil keeps
// nothing. Forget deletes both.
type Profiles interface {
	storage.Profiles // Load, Save
	LoadPolicy(ctx context.Context, name string) (worldapi.Policy, bool, error)
	SavePolicy(ctx context.Context, name string, p worldapi.Policy) error
	Forget(ctx context.Context, name string) (bool, error)
	List(ctx context.Context) ([]profiles.Kept, error)
}

// Seed is what a world is given besides what it keeps: a storage state to
// import, and what to copy from the user's own browser (--attach) or from
// another world. It is applied whole or not at all.
type Seed struct {
	State *storagestate.State
	// FromUserBrowser names the origins whose cookies (by domain match) and
	// localStorage are copied from the user's own browser's default
	// context: the instance must be the user's browser (--attach).
	FromUserBrowser []string
	// FromWorld copies another world's storage: only Origins' when given.
	FromWorld string
	Origins   []string
	// Browser is the running browser when the caller made sure of one
	// (FromUserBrowser reads it); zero: the actor's news of it.
	Browser browser.Endpoint
}

// Empty says the seed gives nothing.
func (s Seed) Empty() bool {
	return s.State == nil && len(s.FromUserBrowser) == 0 && s.FromWorld == ""
}

// Seeded says what a seed gave.
type Seeded struct {
	Made    bool `json:"made"`    // the world was made by this request
	Cookies int  `json:"cookies"` // cookies set into it
	Origins int  `json:"origins"` // origins whose localStorage was set into it
	// Notes say what of the seed could not be given, and why.
	Notes []string `json:"notes,omitempty"`
}

// Errors of the storage requests.
var (
	// ErrNotUsersBrowser: from_user_browser on an instance that is not the
	// user's own browser.
	ErrNotUsersBrowser = errors.New("copying from the user's browser needs the coordinator on the user's own browser (--attach)")
	// ErrEphemeral: forget or keep asked of a fresh agent-… world, which
	// is never kept.
	ErrEphemeral = errors.New("a fresh agent-… world is never kept")
)

// UsersBrowser says the instance's browser is the user's own (--attach):
// worlds may be seeded from its default context.
func (a *Actor) UsersBrowser() bool { return a.spec.UsersBrowser }

// Kept says whether a world of that name keeps its storage on disk:
// every named world but a fresh one of wrap --isolate (agent-…).
func Kept(name string) bool { return !IsFresh(name) }

// KeptInfo is what Summary says of a kept world's file.
type KeptInfo struct {
	Bytes int64     `json:"saved_bytes"`
	Saved time.Time `json:"saved_at"`
}

// Seed makes the world called name if it is not open, then gives it the
// seed: checked whole first (a state, a source world, origins), then set
// into its context when a browser runs (else kept for its next one), then
// kept. Nothing of a refused seed is set.
func (a *Actor) Seed(ctx context.Context, name string, s Seed) (Seeded, error) {
	if err := CheckName(name); err != nil {
		return Seeded{}, err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan seededAnswer) request { return seedWorld{name: name, seed: s, reply: r} })
	if err != nil {
		return Seeded{}, err
	}
	return got.seeded, got.err
}

// Export answers the world's storage: read from its context now when a
// browser runs, else what it keeps. A closed kept world answers its
// profile.
func (a *Actor) Export(ctx context.Context, name string) (storagestate.State, error) {
	if err := CheckName(name); err != nil {
		return storagestate.State{}, err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan exported) request { return exportWorld{name: name, reply: r} })
	if err != nil {
		return storagestate.State{}, err
	}
	return got.state, got.err
}

// Forget closes the world called name if it is open and deletes its
// profile; ErrUnknownWorld when it was neither open nor kept.
func (a *Actor) Forget(ctx context.Context, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) request { return forgetWorld{name: name, reply: r} })
	if err != nil {
		return err
	}
	return errc
}

// Keep reads every open world's storage from the running browser and
// hands it to the profiles, answering once that is done: the last save
// before the coordinator stops (SIGTERM).
func (a *Actor) Keep(ctx context.Context) error {
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) request { return keepAll{reply: r} })
	if err != nil {
		return err
	}
	return errc
}

type (
	seedWorld struct {
		name  string
		seed  Seed
		reply chan seededAnswer
	}
	seededAnswer struct {
		seeded Seeded
		err    error
	}
	exportWorld struct {
		name  string
		reply chan exported
	}
	exported struct {
		state storagestate.State
		err   error
	}
	forgetWorld struct {
		name  string
		reply chan error
	}
	keepAll struct{ reply chan error }
)

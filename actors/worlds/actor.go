// Package worlds is the WorldsActor: one per instance, the book of its
// worlds. A world is a browser context of its own on the instance's shared
// browser, reached at /context/NAME; the actor makes each world's context
// over a CDP connection of its own, makes it again in every new browser
// generation with the world's cookies restored, and keeps what the relays
// of the world's clients read: its contexts of the moment.
package worlds

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// Browser is what the actor follows: a BrowserActor's events.
type Browser interface {
	Subscribe(ctx context.Context, ch chan<- browser.Event, delivery browser.Delivery) (func(), error)
}

// Closer is a client connection of a world (a RelayActor), closed when
// its world is.
type Closer interface {
	Close(code int, reason string)
}

// Spec configures a WorldsActor.
type Spec struct {
	Instance string
	Browser  Browser
	// Profiles keeps the named worlds' storage; nil: nothing is kept.
	Profiles Profiles
	// UsersBrowser says the instance's browser is the user's own
	// (--attach): worlds may copy from its default context.
	UsersBrowser bool
	// SnapshotEvery is how often the cookies of a world with clients are
	// read, to be restored after a crash; 0: DefaultSnapshotEvery.
	SnapshotEvery time.Duration
	// OnHost, when set, hears a guarded world's host counts when they are
	// news (guard.Spec.OnHost): the world's journal. It must not wait.
	OnHost func(world, host string, c guard.HostCount)
	// Journal, when set, is the worlds' journal: told when a world
	// closes, and its world's journal deleted when a world is forgotten.
	Journal Journal
	// Downloads is the instance's downloads folder: each world's own is
	// the folder of its name in it (a guarded world's files go in and out
	// there). "": none.
	Downloads string
	// MaxWorlds is the most worlds open at once (serve --max-worlds): a
	// new one past it is refused (ErrFull, room.go). 0: no limit.
	MaxWorlds int
	Log       zerolog.Logger
}

// Journal is what the worlds tell the journal (journal.Actor).
type Journal interface {
	// Closed must not wait.
	Closed(world string)
	// Forget says whether the world had a journal to delete.
	Forget(ctx context.Context, world string) (bool, error)
	// Denied records a door of a guarded world refused (method, what was
	// asked, the rule); it must not wait.
	Denied(world, method, what, rule string)
}

// DefaultSnapshotEvery: a crash loses at most the cookies of the last
// moment; a read costs the browser well under a millisecond.
const DefaultSnapshotEvery = 1500 * time.Millisecond

// Actor is the WorldsActor. It owns the book of an instance's worlds (name,
// context in the browser of the moment, contexts its clients made, cookie
// snapshot, clients) and its CDP connection to the running browser.
// Everything else asks it through the methods below and the World handles.
type Actor struct {
	spec    Spec
	mailbox chan request
	book    map[string]*world // touched only by Serve's goroutine; outlives a restart of Serve
	// followers hear every world made or closed (News); touched only by
	// Serve's goroutine.
	followers []follower
	// retired are the policies and upstream proxies of guarded worlds
	// closed since the actor was made, by name (guard.go); touched only by
	// Serve's goroutine.
	retired map[string]Network
}

// New makes an actor; it does nothing until served.
func New(spec Spec) *Actor {
	if spec.SnapshotEvery <= 0 {
		spec.SnapshotEvery = DefaultSnapshotEvery
	}
	return &Actor{spec: spec, mailbox: make(chan request), book: map[string]*world{}}
}

func (a *Actor) String() string { return "worlds " + a.spec.Instance }

// Errors the actor answers.
var (
	// ErrUnknownWorld: no world of that name is open.
	ErrUnknownWorld = errors.New("unknown world")
	// ErrWorldClosed: the world was closed while a client still used it.
	ErrWorldClosed = errors.New("the world was closed")
	// ErrBrowserGone: the browser the request named is gone; ask the
	// BrowserActor for the running one and try again.
	ErrBrowserGone = storage.ErrBrowserGone
)

// Summary is one world as the coordinator lists it.
type Summary struct {
	Name    string `json:"name"`
	Clients int    `json:"clients"`
	Pages   int    `json:"pages"`
	// Context is its browser context in the running browser; "" when no
	// browser runs.
	Context string `json:"browser_context_id,omitempty"`
	// Open: the world is open; a kept world that is not is listed for
	// its profile alone.
	Open bool `json:"open"`
	// Kept: the world's storage is kept on disk (a named world); *KeptInfo
	// says its file's size and when it was last saved, once it was.
	Kept      bool `json:"kept"`
	*KeptInfo `json:",omitempty"`
	// Policy is its network policy (guard.go); nil: none.
	Policy *PolicyInfo `json:"policy,omitempty"`
}

// Target is a target of a world, from the browser's Target.getTargets: as
// the storage room reads it.
type Target = storage.Target

// Open returns the world called name, made if new, and its context in
// the browser at ep, made there first if needed. The name must pass
// CheckName.
func (a *Actor) Open(ctx context.Context, name string, ep browser.Endpoint) (*World, string, error) {
	if err := CheckName(name); err != nil {
		return nil, "", err
	}
	got, err := actor.Ask(ctx, a.mailbox, func(r chan opened) request { return openWorld{name: name, ep: ep, reply: r} })
	if err != nil {
		return nil, "", err
	}
	return got.world, got.context, got.err
}

// Targets lists the world's targets in the browser at ep: those of its
// own context and of the contexts its clients made.
func (a *Actor) Targets(ctx context.Context, w *World, ep browser.Endpoint) ([]Target, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan targetsAnswer) request { return listTargets{world: w, ep: ep, reply: r} })
	if err != nil {
		return nil, err
	}
	return got.targets, got.err
}

// NewPage opens a page at url in the world's context (/json/new) and
// returns its target id.
func (a *Actor) NewPage(ctx context.Context, w *World, ep browser.Endpoint, url string) (string, error) {
	got, err := actor.Ask(ctx, a.mailbox, func(r chan pageAnswer) request { return newPage{world: w, ep: ep, url: url, reply: r} })
	if err != nil {
		return "", err
	}
	return got.target, got.err
}

// Joined counts a client connection of the world; Left uncounts it, and
// the world's cookies are read at once (the client may have set some).
func (a *Actor) Joined(ctx context.Context, w *World, c Closer) error {
	return actor.Send(ctx, a.mailbox, request(clientJoined{world: w, client: c}))
}

// Left: see Joined. ctx is the client's: once it is done (cdpvisor is
// stopping, the actor with it) nobody waits for the news.
func (a *Actor) Left(ctx context.Context, w *World, c Closer) {
	ctx, cancel := context.WithTimeout(ctx, tellTimeout)
	defer cancel()
	_ = actor.Send(ctx, a.mailbox, request(clientLeft{world: w, client: c}))
}

// List reports every world, by name.
func (a *Actor) List(ctx context.Context) ([]Summary, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan []Summary) request { return listWorlds{reply: r} })
}

// Close closes the world called name: its clients' connections close
// (1001), its contexts are disposed with their pages, and it leaves the
// book (the name, used again, makes a new world).
func (a *Actor) Close(ctx context.Context, name string) error {
	errc, err := actor.Ask(ctx, a.mailbox, func(r chan error) request { return closeWorld{name: name, reply: r} })
	if err != nil {
		return err
	}
	return errc
}

// Serve runs the actor until ctx is done.
func (a *Actor) Serve(ctx context.Context) error {
	events := make(chan browser.Event, 16)
	unsubscribe, err := a.spec.Browser.Subscribe(ctx, events, browser.Lossless)
	if err != nil {
		return err
	}
	r := newRun(a)
	r.reopenGuards()
	defer r.shutdown(unsubscribe, events)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev := <-events:
			r.onBrowser(ev)
		case m := <-a.mailbox:
			r.handle(m)
		case m := <-r.fromSession:
			r.onSession(m)
		case <-r.snapshots.C:
			r.snapshotDue()
		case fn := <-r.wake:
			fn()
		}
	}
}

// Requests the actor hears (requests.go); each reply channel is buffered.
type (
	openWorld struct {
		name  string // a world by name, made if new; or
		world *World // this world, failing if it was closed
		ep    browser.Endpoint
		reply chan opened
	}
	opened struct {
		world   *World
		context string
		err     error
	}
	contextMade struct {
		world   *World
		gen     int
		context string
		reply   chan struct{}
	}
	contextDisposed struct {
		world   *World
		gen     int
		context string
	}
	closePages struct {
		world *World
		ep    browser.Endpoint
		reply chan error
	}
	listTargets struct {
		world *World
		ep    browser.Endpoint
		reply chan targetsAnswer
	}
	targetsAnswer struct {
		targets []Target
		err     error
	}
	newPage struct {
		world *World
		ep    browser.Endpoint
		url   string
		reply chan pageAnswer
	}
	pageAnswer struct {
		target string
		err    error
	}
	clientJoined struct {
		world  *World
		client Closer
	}
	clientLeft struct {
		world  *World
		client Closer
	}
	listWorlds struct{ reply chan []Summary }
	ownerOf    struct {
		context string
		reply   chan string
	}
	closeWorld struct {
		name  string
		reply chan error
	}
)

// OwnerOf says which world owns a browser context in the running browser
// ("" none): its own context, or one its clients made inside it (the
// recorder's question: every page of a recorded world is recorded).
func (a *Actor) OwnerOf(ctx context.Context, contextID string) (string, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan string) request { return ownerOf{context: contextID, reply: r} })
}

// WorldOfContext says which world a browser context is the own context of
// ("" when none), from the book (the DownloadsActor asks it). Contexts a
// world's clients made inside it are not in the book's summaries: their
// downloads land in the instance's folder.
func (a *Actor) WorldOfContext(ctx context.Context, contextID string) (string, error) {
	list, err := a.List(ctx)
	if err != nil {
		return "", err
	}
	for _, w := range list {
		if w.Context == contextID {
			return w.Name, nil
		}
	}
	return "", nil
}

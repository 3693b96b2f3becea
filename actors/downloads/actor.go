// Package downloads is the DownloadsActor: one per instance, it has every
// browser the instance launches save downloads into the instance's download
// dir, over a CDP connection of its own, and keeps the table of those
// downloads from the browser's download events, across browser restarts.
package downloads

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// Browser is what the actor follows: a BrowserActor's events.
type Browser interface {
	Subscribe(ctx context.Context, ch chan<- browser.Event, delivery browser.Delivery) (func(), error)
}

// Spec configures a DownloadsActor.
type Spec struct {
	Instance string
	Dir      string // absolute; where this instance's downloads land
	// Tidy removes Dir when the actor stops and it is empty: a folder
	// cdpvisor named for the instance, which nobody needs empty.
	Tidy    bool
	Browser Browser
	// WorldOf names the world a browser context is the own context of;
	// nil when the instance has no worlds. A world's downloads land in its
	// folder, WorldDir(Dir, name).
	WorldOf WorldOf
	// OnDownload, when set, hears a download begin and finish: its world's
	// journal. Called on the actor's goroutine: it must not wait.
	OnDownload func(e Entry)
	Log        zerolog.Logger
}

// WorldOf names the world (/context/NAME) whose own browser context in the
// running browser is contextID, "" when it is no world's. The instance's
// WorldsActor knows; it never asks this actor anything, so the actor may
// wait for it (off its own goroutine: see run.askWorld).
type WorldOf func(ctx context.Context, contextID string) (string, error)

// Actor is the DownloadsActor. It owns the table of an instance's
// downloads, its CDP session with the running browser, and what it knows
// of the browser contexts and of the download behaviour clients set for
// themselves. Everything else asks it through the methods below.
type Actor struct {
	spec    Spec
	mailbox chan request
	table   *table     // touched only by Serve's goroutine; outlives a restart of Serve
	clients *overrides // likewise
}

// New makes an actor; it does nothing until served.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, mailbox: make(chan request), table: newTable(spec.Dir), clients: newOverrides()}
}

func (a *Actor) String() string { return "downloads " + a.spec.Instance }

// Dir is where the instance's downloads land.
func (a *Actor) Dir() string { return a.spec.Dir }

// List returns every download the instance's browsers began, oldest first.
func (a *Actor) List(ctx context.Context) ([]Entry, error) { return a.ListIn(ctx, "") }

// ListIn returns the downloads of a world ("" for every one), oldest
// first.
func (a *Actor) ListIn(ctx context.Context, world string) ([]Entry, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan []Entry) request { return listDownloads{world: world, reply: r} })
}

// Serve runs the actor until ctx is done, then stops its session.
func (a *Actor) Serve(ctx context.Context) error {
	events := make(chan browser.Event, 16)
	unsubscribe, err := a.spec.Browser.Subscribe(ctx, events, browser.Lossless)
	if err != nil {
		return err
	}
	r := newRun(a)
	defer r.shutdown(unsubscribe, events)
	if a.spec.Tidy {
		defer removeEmpty(a.spec.Dir)
	}
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
		case <-r.reapply.C:
			r.reapplyDue()
		case <-r.redial.C:
			r.redialDue()
		}
	}
}

// Requests the actor hears; each reply channel is buffered.
type (
	listDownloads struct {
		world string
		reply chan []Entry
	}
	waitFor struct {
		w     *waiter
		reply chan waitStart
	}
	stopWaiting struct {
		w     *waiter
		reply chan *Entry
	}
	clientSet struct { // a client set its own download behaviour
		conn    *watchedConn
		context string // "" for the default browser context
	}
	clientGone struct{ conn *watchedConn } // that client's connection closed
)

// settleDelay: Chromium undoes a client's download behaviour when the
// client's connection closes, an instant after the close is seen here;
// cdpvisor sets its own again once that has surely happened.
const settleDelay = 300 * time.Millisecond

// redialDelay and redialTries: the actor's own connection to a running
// browser ended (Chromium closed it): downloads would go to the browser's
// default place until it reconnects.
const (
	redialDelay = time.Second
	redialTries = 5
)

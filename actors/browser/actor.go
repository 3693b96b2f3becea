// Package browser is the BrowserActor: one browser process behind an
// instance, its launch, readiness, exit and cleanup, and the browser machine.
package browser

import (
	"context"
	"errors"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"

	"github.com/rs/zerolog"
)

// ErrInstanceClosed answers what was pending for an instance when it was
// closed (by browser_instance close, or because cdpvisor is stopping).
var ErrInstanceClosed = errors.New("INSTANCE_CLOSED")

// ErrNotRunning is a browser that is not there and that cdpvisor does not
// start (the user's own): its clients' requests fail, the clients stay.
var ErrNotRunning = launch.ErrNotRunning

// ErrUsersBrowser refuses to stop, restart or switch the user's own browser.
var ErrUsersBrowser = errors.New("the browser is the user's own: cdpvisor attached to it and never stops, restarts or switches it")

// usersBrowserRefused is ErrUsersBrowser with what to do instead.
func usersBrowserRefused() error {
	return remedy.With(ErrUsersBrowser, remedy.Say("close or restart it yourself; cdpvisor lets go when it closes and attaches again on the next request once it runs with remote debugging allowed"))
}

// ErrStopped answers a demand whose launch was called off by a stop.
var ErrStopped = errors.New("the browser was stopped while it was starting")

// Spec configures a BrowserActor.
type Spec struct {
	Instance string
	Launch   launch.Options // the options of the first launch
	// Launcher finds, checks and starts the browsers of the instance's
	// family (launchers.For); required.
	Launcher launch.Launcher
	// KeepOnShutdown leaves a running browser running when the actor stops
	// (the bridge's headed browser on a user's profile, for the next run to
	// attach to); otherwise shutdown stops it.
	KeepOnShutdown bool
	// HangTimeout: a running browser that answers nothing on the actor's own
	// CDP connection for this long is declared hung, its process group
	// killed, and handled as a crash. 0 disables the probe.
	HangTimeout time.Duration
	// IdleStop: a browser with no client connection and no demand for this
	// long is stopped (the next demand launches again). 0 never stops it.
	IdleStop time.Duration
	// UsersBrowser: the browser is the user's own, which the Launcher
	// attaches to and never launches (serve --attach): a stop, a restart or
	// a switch is refused, and the idle stop never lets go of it (each
	// attach may ask the user to allow it again).
	UsersBrowser bool
	// Words says the fixes of a failed launch in the log (the edge's
	// words: the command line's flags for serve); nil: remedy.Plain.
	Words remedy.Words
	Log   zerolog.Logger
}

// Actor is the BrowserActor: it owns one browser process (its launch,
// readiness, exit and cleanup), the browser machine, the generation number
// and the launch options. Everything else sends it messages through the
// methods below.
type Actor struct {
	spec    Spec
	mailbox chan request
}

// New makes an actor; it does nothing until served.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, mailbox: make(chan request)}
}

func (a *Actor) String() string { return "browser " + a.spec.Instance }

// EnsureRunning returns the running browser, launching it if none runs.
// Concurrent callers during a launch all wait for that same launch.
func (a *Actor) EnsureRunning(ctx context.Context) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) request { return ensureRunning{reply: r} })
}

// Launch (re)starts the browser with the change made to its options,
// stopping a running one first. Changes apply in the order they arrive,
// each on top of the one before; a launch that fails changes nothing that
// later launches use.
func (a *Actor) Launch(ctx context.Context, change Change) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) request { return launchBrowser{change: change, reply: r} })
}

// Restart stops the browser and launches it again with the options of its
// last launch. Without force, a healthy browser younger than RestartGuard
// is not restarted (ErrRestartRefused).
func (a *Actor) Restart(ctx context.Context, force bool) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) request { return restartBrowser{force: force, reply: r} })
}

// Replace returns a browser other than generation gen: it restarts gen if
// that one still runs (its connections failed a bootstrap), and otherwise
// returns the current browser, launching one if needed. Many relays asking
// about the same gen cause one restart.
func (a *Actor) Replace(ctx context.Context, gen int) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) request { return replaceBrowser{gen: gen, reply: r} })
}

func (a *Actor) awaitLaunch(ctx context.Context, ask func(chan launchResult) request) (Endpoint, error) {
	r, err := actor.Ask(ctx, a.mailbox, ask)
	if err != nil {
		return Endpoint{}, err
	}
	return r.ep, r.err
}

// Stop ends the browser (if any) and returns once it has exited and its
// temporary profile is gone.
func (a *Actor) Stop(ctx context.Context) error {
	err, sendErr := actor.Ask(ctx, a.mailbox, func(r chan error) request { return stopBrowser{reply: r} })
	if sendErr != nil {
		return sendErr
	}
	return err
}

// Status returns a snapshot of the actor.
func (a *Actor) Status(ctx context.Context) (Status, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan Status) request { return browserStatus{reply: r} })
}

// Subscribe sends the browser's events to ch from now on, and first a
// Ready for a browser already running, so a subscriber that comes late
// misses nothing it needs. The returned function ends the subscription.
func (a *Actor) Subscribe(ctx context.Context, ch chan<- Event, delivery Delivery) (func(), error) {
	sub := subscription{ch: ch, delivery: delivery}
	return actor.Ask(ctx, a.mailbox, func(r chan func()) request { return subscribe{sub: sub, reply: r} })
}

// SetClients tells the actor how many client connections its endpoint
// has now: an open connection, even a silent one, keeps the browser from
// the idle stop.
func (a *Actor) SetClients(ctx context.Context, n int) error {
	return actor.Send(ctx, a.mailbox, request(clientsChanged{n: n}))
}

// Touch is demand that launches nothing (an MCP tool call): it restarts
// the idle-stop clock.
func (a *Actor) Touch(ctx context.Context) error { return actor.Send(ctx, a.mailbox, request(touch{})) }

// Serve runs the actor until ctx is done; then it stops the browser and
// waits for every goroutine it started.
func (a *Actor) Serve(ctx context.Context) error {
	r := newBrowserRun(a, ctx)
	defer r.shutdown()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-a.mailbox:
			r.handle(m)
		case m := <-r.reports:
			r.handleReport(m)
		case <-r.idle.C:
			r.idleElapsed()
		}
	}
}

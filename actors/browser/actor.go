// Package browser is the BrowserActor: one browser process behind an
// instance, its launch, readiness, exit and cleanup, and the browser machine.
package browser

import (
	"context"
	"errors"

	"github.com/cdpvisor/cdpvisor/actors/actor"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// ErrInstanceClosed answers what was pending for an instance when it was
// closed (by browser_instance close, or because cdpvisor is stopping).
var ErrInstanceClosed = errors.New("INSTANCE_CLOSED")

// ErrStopped answers a demand whose launch was called off by a stop.
var ErrStopped = errors.New("the browser was stopped while it was starting")

// Spec configures a Actor.
type Spec struct {
	Instance string
	Launch   chrome.LaunchOptions // the options of the first launch
	Watchdog chan<- any           // where Ready and Exited go for the WatchdogActor (nil: none)
	// KeepOnShutdown leaves a running browser running when the actor stops
	// (the bridge's headed browser on a user's profile, for the next run to
	// attach to); otherwise shutdown stops it.
	KeepOnShutdown bool
	Log            zerolog.Logger
}

// Actor owns one browser process: its launch, readiness, exit and
// cleanup, the browser machine and the generation number. Everything else
// sends it messages through the methods below.
type Actor struct {
	spec    Spec
	mailbox chan any
}

// New makes an actor; it does nothing until served.
func New(spec Spec) *Actor {
	return &Actor{spec: spec, mailbox: make(chan any)}
}

func (a *Actor) String() string { return "browser " + a.spec.Instance }

// EnsureRunning returns the running browser, launching it if none runs.
// Concurrent callers during a launch all wait for that same launch.
func (a *Actor) EnsureRunning(ctx context.Context) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return ensureRunning{reply: r} })
}

// Launch (re)starts the browser with opts, stopping a running one first.
func (a *Actor) Launch(ctx context.Context, opts chrome.LaunchOptions) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return launchBrowser{opts: &opts, reply: r} })
}

// Restart stops the browser and launches it again with the options of its
// last launch.
func (a *Actor) Restart(ctx context.Context) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return launchBrowser{reply: r} })
}

// Replace returns a browser other than generation gen: it restarts gen if
// that one still runs (its connections failed a bootstrap), and otherwise
// returns the current browser, launching one if needed. Many relays asking
// about the same gen cause one restart.
func (a *Actor) Replace(ctx context.Context, gen int) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return replaceBrowser{gen: gen, reply: r} })
}

func (a *Actor) awaitLaunch(ctx context.Context, request func(chan launchResult) any) (Endpoint, error) {
	r, err := actor.Ask(ctx, a.mailbox, request)
	if err != nil {
		return Endpoint{}, err
	}
	return r.ep, r.err
}

// Stop ends the browser (if any) and returns once it has exited and its
// temporary profile is gone.
func (a *Actor) Stop(ctx context.Context) error {
	err, sendErr := actor.Ask(ctx, a.mailbox, func(r chan error) any { return stopBrowser{reply: r} })
	if sendErr != nil {
		return sendErr
	}
	return err
}

// Status returns a snapshot of the actor.
func (a *Actor) Status(ctx context.Context) (Status, error) {
	return actor.Ask(ctx, a.mailbox, func(r chan Status) any { return browserStatus{reply: r} })
}

// Subscribe returns a channel of Ready and Exited events and
// a function that ends the subscription. The subscriber must keep reading.
func (a *Actor) Subscribe(ctx context.Context) (<-chan any, func(), error) {
	ch := make(chan any, subscriberBuffer)
	cancel, err := actor.Ask(ctx, a.mailbox, func(r chan func()) any { return subscribe{ch: ch, reply: r} })
	if err != nil {
		return nil, nil, err
	}
	return ch, cancel, nil
}

const subscriberBuffer = 64

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
		}
	}
}

package actors

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// ErrInstanceClosed answers what was pending for an instance when it was
// closed (by browser_instance close, or because cdpvisor is stopping).
var ErrInstanceClosed = errors.New("INSTANCE_CLOSED")

// ErrStopped answers a demand whose launch was called off by a stop.
var ErrStopped = errors.New("the browser was stopped while it was starting")

// BrowserSpec configures a BrowserActor.
type BrowserSpec struct {
	Instance string
	Launch   chrome.LaunchOptions // the options of the first launch
	Watchdog chan<- any           // where BrowserReady and BrowserExited go for the WatchdogActor (nil: none)
	// KeepOnShutdown leaves a running browser running when the actor stops
	// (the bridge's headed browser on a user's profile, for the next run to
	// attach to); otherwise shutdown stops it.
	KeepOnShutdown bool
	Log            zerolog.Logger
}

// BrowserActor owns one browser process: its launch, readiness, exit and
// cleanup, the browser machine and the generation number. Everything else
// sends it messages through the methods below.
type BrowserActor struct {
	spec    BrowserSpec
	mailbox chan any
}

// NewBrowserActor makes an actor; it does nothing until served.
func NewBrowserActor(spec BrowserSpec) *BrowserActor {
	return &BrowserActor{spec: spec, mailbox: make(chan any)}
}

func (a *BrowserActor) String() string { return "browser " + a.spec.Instance }

// EnsureRunning returns the running browser, launching it if none runs.
// Concurrent callers during a launch all wait for that same launch.
func (a *BrowserActor) EnsureRunning(ctx context.Context) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return ensureRunning{reply: r} })
}

// Launch (re)starts the browser with opts, stopping a running one first.
func (a *BrowserActor) Launch(ctx context.Context, opts chrome.LaunchOptions) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return launchBrowser{opts: &opts, reply: r} })
}

// Restart stops the browser and launches it again with the options of its
// last launch.
func (a *BrowserActor) Restart(ctx context.Context) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return launchBrowser{reply: r} })
}

// Replace returns a browser other than generation gen: it restarts gen if
// that one still runs (its connections failed a bootstrap), and otherwise
// returns the current browser, launching one if needed. Many relays asking
// about the same gen cause one restart.
func (a *BrowserActor) Replace(ctx context.Context, gen int) (Endpoint, error) {
	return a.awaitLaunch(ctx, func(r chan launchResult) any { return replaceBrowser{gen: gen, reply: r} })
}

func (a *BrowserActor) awaitLaunch(ctx context.Context, request func(chan launchResult) any) (Endpoint, error) {
	r, err := ask(ctx, a.mailbox, request)
	if err != nil {
		return Endpoint{}, err
	}
	return r.ep, r.err
}

// Stop ends the browser (if any) and returns once it has exited and its
// temporary profile is gone.
func (a *BrowserActor) Stop(ctx context.Context) error {
	err, sendErr := ask(ctx, a.mailbox, func(r chan error) any { return stopBrowser{reply: r} })
	if sendErr != nil {
		return sendErr
	}
	return err
}

// Status returns a snapshot of the actor.
func (a *BrowserActor) Status(ctx context.Context) (BrowserStatus, error) {
	return ask(ctx, a.mailbox, func(r chan BrowserStatus) any { return browserStatus{reply: r} })
}

// Subscribe returns a channel of BrowserReady and BrowserExited events and
// a function that ends the subscription. The subscriber must keep reading.
func (a *BrowserActor) Subscribe(ctx context.Context) (<-chan any, func(), error) {
	ch := make(chan any, subscriberBuffer)
	cancel, err := ask(ctx, a.mailbox, func(r chan func()) any { return subscribe{ch: ch, reply: r} })
	if err != nil {
		return nil, nil, err
	}
	return ch, cancel, nil
}

const subscriberBuffer = 64

// Serve runs the actor until ctx is done; then it stops the browser and
// waits for every goroutine it started.
func (a *BrowserActor) Serve(ctx context.Context) error {
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

// sleepOrDone waits d unless ctx ends first.
func sleepOrDone(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

package actors

import (
	"context"
	"errors"
	"fmt"
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
	reply := make(chan launchResult, 1)
	return a.awaitLaunch(ctx, ensureRunning{reply: reply}, reply)
}

// Launch (re)starts the browser with opts, stopping a running one first.
func (a *BrowserActor) Launch(ctx context.Context, opts chrome.LaunchOptions) (Endpoint, error) {
	reply := make(chan launchResult, 1)
	return a.awaitLaunch(ctx, launchBrowser{opts: &opts, reply: reply}, reply)
}

// Restart stops the browser and launches it again with the options of its
// last launch.
func (a *BrowserActor) Restart(ctx context.Context) (Endpoint, error) {
	reply := make(chan launchResult, 1)
	return a.awaitLaunch(ctx, launchBrowser{reply: reply}, reply)
}

// Replace returns a browser other than generation gen: it restarts gen if
// that one still runs (its connections failed a bootstrap), and otherwise
// returns the current browser, launching one if needed. Many relays asking
// about the same gen cause one restart.
func (a *BrowserActor) Replace(ctx context.Context, gen int) (Endpoint, error) {
	reply := make(chan launchResult, 1)
	return a.awaitLaunch(ctx, replaceBrowser{gen: gen, reply: reply}, reply)
}

func (a *BrowserActor) awaitLaunch(ctx context.Context, msg any, reply chan launchResult) (Endpoint, error) {
	if err := send(ctx, a.mailbox, msg); err != nil {
		return Endpoint{}, err
	}
	select {
	case r := <-reply:
		return r.ep, r.err
	case <-ctx.Done():
		return Endpoint{}, ctx.Err()
	}
}

// Stop ends the browser (if any) and returns once it has exited and its
// temporary profile is gone.
func (a *BrowserActor) Stop(ctx context.Context) error {
	reply := make(chan error, 1)
	if err := send(ctx, a.mailbox, stopBrowser{reply: reply}); err != nil {
		return err
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Status returns a snapshot of the actor.
func (a *BrowserActor) Status(ctx context.Context) (BrowserStatus, error) {
	reply := make(chan BrowserStatus, 1)
	if err := send(ctx, a.mailbox, browserStatus{reply: reply}); err != nil {
		return BrowserStatus{}, err
	}
	select {
	case s := <-reply:
		return s, nil
	case <-ctx.Done():
		return BrowserStatus{}, ctx.Err()
	}
}

// Subscribe returns a channel of BrowserReady and BrowserExited events and
// a function that ends the subscription. The subscriber must keep reading.
func (a *BrowserActor) Subscribe(ctx context.Context) (<-chan any, func(), error) {
	ch := make(chan any, subscriberBuffer)
	reply := make(chan func(), 1)
	if err := send(ctx, a.mailbox, subscribe{ch: ch, reply: reply}); err != nil {
		return nil, nil, err
	}
	select {
	case cancel := <-reply:
		return ch, cancel, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
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

// send delivers msg to an actor's mailbox unless ctx ends first.
func send(ctx context.Context, mailbox chan<- any, msg any) error {
	select {
	case mailbox <- msg:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("actor unavailable: %w", ctx.Err())
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

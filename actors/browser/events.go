package browser

import (
	"time"

	"github.com/rs/zerolog"
)

// Event is one fact in a browser's life, in the order the actor lived it.
// Every event names its instance and generation.
type Event interface{ isEvent() }

// Starting: a launch began.
type Starting struct {
	Instance   string
	Generation int
}

// Ready: a launch finished; the browser answers at Endpoint.
type Ready struct{ Endpoint Endpoint }

// LaunchFailed: a launch ended without a browser.
type LaunchFailed struct {
	Instance   string
	Generation int
	Err        error
}

// Exited: a browser is gone. Planned exits are stops and restarts;
// unplanned ones are crashes and kills from outside.
type Exited struct {
	Instance   string
	Generation int
	Pid        int
	Planned    bool
	Record     ExitRecord
}

func (Starting) isEvent()     {}
func (Ready) isEvent()        {}
func (LaunchFailed) isEvent() {}
func (Exited) isEvent()       {}

// Delivery says what happens when a subscriber falls behind.
type Delivery int

const (
	// Lossy drops an event for a subscriber whose channel is full (a
	// status view, a test).
	Lossy Delivery = iota
	// Lossless waits for the subscriber (up to losslessWait, then says so
	// in the log): internal subscribers such as the watchdog, for which a
	// missed Ready is a browser left unguarded.
	Lossless
)

// losslessWait bounds how long the actor waits on a lossless subscriber.
const losslessWait = 5 * time.Second

type subscription struct {
	ch       chan<- Event
	delivery Delivery
}

// publish sends ev to every subscriber.
func publish(subs map[chan<- Event]subscription, ev Event, log zerolog.Logger) {
	for _, s := range subs {
		deliver(s, ev, log)
	}
}

func deliver(s subscription, ev Event, log zerolog.Logger) {
	if s.delivery == Lossless {
		t := time.NewTimer(losslessWait)
		defer t.Stop()
		select {
		case s.ch <- ev:
		case <-t.C:
			log.Error().Msgf("a lossless subscriber did not take a %T event within %s; event lost", ev, losslessWait)
		}
		return
	}
	select {
	case s.ch <- ev:
	default:
		log.Warn().Msgf("a browser event subscriber is not reading; %T event dropped", ev)
	}
}

// Leave ends a lossless subscription made on events: it unsubscribes while
// taking the events still being delivered, since a lossless delivery waits
// for its subscriber and the actor would wait on it meanwhile.
func Leave(unsubscribe func(), events <-chan Event) {
	done := make(chan struct{})
	go func() { defer close(done); unsubscribe() }() // owned: Leave waits for it
	for {
		select {
		case <-done:
			return
		case <-events:
		}
	}
}

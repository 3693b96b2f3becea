package worlds

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/actors/worlds/storage"
)

// run is one Serve of the actor: its session with the running browser and
// what it knows of that browser. The book lives in the Actor and outlives
// it.
type run struct {
	a           *Actor
	log         zerolog.Logger
	fromSession chan sessionNews
	sess        *cdpsession.Session[sessionNews]
	ep          browser.Endpoint // the newest browser heard of
	running     bool             // ep's browser runs, as far as the actor knows
	exited      int              // the newest generation known to have exited
	pending     map[int64]pendingCall
	snapshots   *time.Ticker
	wake        chan func()   // what after scheduled, run on the actor's goroutine
	stopped     chan struct{} // closed at shutdown: a pending after gives up
	// storage is the worlds' storage room of this Serve (its page sessions
	// gone with the session), which the actor calls and which reaches
	// back only through storageHost.
	storage *storage.Room
}

// pendingCall is a command awaiting its answer.
type pendingCall struct {
	then    func(answer)
	since   time.Time
	session string // the page session it went to; "": the browser's
}

// callTimeout: a command the browser has not answered by then fails (the
// browser hangs; its BrowserActor's probe ends it in time), so nobody
// waits on the actor for ever.
const callTimeout = 10 * time.Second

// ErrNoAnswer fails a command the browser did not answer in time: gone
// for the world's request, though the browser may only be slow (whether
// it hangs is its BrowserActor's probe's to judge).
var ErrNoAnswer = fmt.Errorf("%w: it did not answer within %s", ErrBrowserGone, callTimeout)

func newRun(a *Actor) *run {
	r := &run{
		a: a, log: a.spec.Log, fromSession: make(chan sessionNews), pending: map[int64]pendingCall{},
		snapshots: time.NewTicker(a.spec.SnapshotEvery), wake: make(chan func()), stopped: make(chan struct{}),
	}
	r.storage = storage.New(storageHost{r}, a.spec.Profiles, r.log)
	return r
}

// shutdown stops the session and the subscription, taking the browser's
// events meanwhile so a lossless delivery never waits on this actor.
func (r *run) shutdown(unsubscribe func(), events <-chan browser.Event) {
	close(r.stopped)
	r.snapshots.Stop()
	r.closeGuards()
	r.dropSession()
	browser.Leave(unsubscribe, events)
}

// after runs fn on the actor's goroutine once d has passed, unless the
// actor stops first.
func (r *run) after(d time.Duration, fn func()) {
	time.AfterFunc(d, func() { // owned: ends with the run (stopped)
		select {
		case r.wake <- fn:
		case <-r.stopped:
		}
	})
}

func (r *run) onBrowser(ev browser.Event) {
	switch ev := ev.(type) {
	case browser.Ready:
		if r.adopt(ev.Endpoint) != nil {
			return
		}
		// The worlds are made again in every new browser, clients or not:
		// a client that comes back finds its world with its cookies.
		for _, w := range r.a.book {
			r.ensure(w, nil)
		}
	case browser.Exited:
		if ev.Generation > r.exited {
			r.exited = ev.Generation
		}
		if r.running && ev.Generation == r.ep.Generation {
			r.running = false
			r.dropSession()
			for _, w := range r.a.book {
				w.forget()
			}
		}
	}
}

// adopt makes ep's browser the running one when it is newer than the one
// the actor knows (a request may name it before its Ready arrives); a
// browser older than that, or one that exited, is gone. The worlds forget
// the contexts they had in an older browser.
func (r *run) adopt(ep browser.Endpoint) error {
	switch {
	case ep.Generation <= r.exited, r.running && ep.Generation < r.ep.Generation:
		return ErrBrowserGone
	case r.running && ep.Generation == r.ep.Generation:
		return nil
	}
	r.dropSession()
	r.ep, r.running = ep, true
	for _, w := range r.a.book {
		if w.gen != ep.Generation {
			w.forget()
		}
	}
	return nil
}

// current says the world's context is made in the running browser.
func (r *run) current(w *world) bool {
	return r.running && w.context != "" && w.gen == r.ep.Generation
}

// call sends a command to the running browser (connecting first if need
// be); then runs with its answer on the actor's goroutine, or with a
// failure if no browser takes it.
func (r *run) call(method string, params any, then func(answer)) {
	r.callOn("", method, params, then)
}

// callOn is call on a page session of the storage room's; "": the
// browser's.
func (r *run) callOn(sessionID, method string, params any, then func(answer)) {
	if !r.running {
		then(failed(ErrBrowserGone))
		return
	}
	if r.sess == nil {
		r.sess = startSession(r.ep, r.fromSession)
	}
	id, ok := r.sess.SendTo(sessionID, method, params)
	if !ok {
		r.log.Warn().Str("method", method).Msg("the browser reads nothing on the worlds connection; command dropped")
		then(failed(ErrBrowserGone))
		return
	}
	r.pending[id] = pendingCall{then: then, since: time.Now(), session: sessionID}
}

// expire fails the commands the browser has left unanswered too long.
func (r *run) expire(now time.Time) {
	for id, c := range r.pending {
		if now.Sub(c.since) > callTimeout {
			delete(r.pending, id)
			r.log.Warn().Int64("id", id).Msg("the browser did not answer the worlds actor in time")
			c.then(failed(ErrNoAnswer))
		}
	}
}

func (r *run) onSession(m sessionNews) {
	switch m := m.(type) {
	case sessionAnswer:
		if r.sess == nil || r.sess.Gen() != m.gen {
			return
		}
		if c, ok := r.pending[m.answer.ID]; ok {
			delete(r.pending, m.answer.ID)
			c.then(m.answer)
		}
	case sessionEvent:
		if r.sess != nil && r.sess.Gen() == m.gen {
			r.onEvent(m)
		}
	case sessionEnded:
		if r.sess == nil || r.sess.Gen() != m.Gen {
			return
		}
		// Mostly the browser is exiting, and its exit follows; if it does
		// not, the next command connects again.
		r.log.Debug().Err(m.Err).Int("generation", m.Gen).Msg("the worlds connection to the browser ended")
		r.dropSession()
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

// dropSession ends the session; what it had not answered fails.
func (r *run) dropSession() {
	if r.sess != nil {
		r.sess.Stop()
		r.sess = nil
	}
	r.storage.Disconnected()
	pending := r.pending
	r.pending = map[int64]pendingCall{}
	for _, c := range pending {
		c.then(failed(ErrBrowserGone))
	}
}

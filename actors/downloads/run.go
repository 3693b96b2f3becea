package downloads

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
)

// run is one Serve of the actor: the session with the running browser and
// what it knows of that browser. The table and the client overrides live
// in the Actor and outlive it.
type run struct {
	a           *Actor
	log         zerolog.Logger
	fromSession chan sessionNews
	sess        *cdpsession.Session[sessionNews]
	ep          browser.Endpoint // the running browser's, while running
	running     bool
	ctxs        *contexts
	pending     map[int64]command // commands sent on sess, by id
	waiters     map[*waiter]bool
	reapply     *time.Timer
	reapplyCtx  map[string]bool // contexts whose client setting ended
	redial      *time.Timer
	redials     int // reconnections tried since the session last opened
	// The world lookups under way (askWorld): their goroutines are the
	// run's, ended by stopLookups and waited for at shutdown.
	lookups     sync.WaitGroup
	lookupCtx   context.Context
	stopLookups context.CancelFunc
}

// command is a command sent on the session, for reading its answer.
type command struct {
	method   string
	context  string   // setDownloadBehavior: the context it was for
	contexts []string // getBrowserContexts: the contexts it classifies
}

func newRun(a *Actor) *run {
	r := &run{
		a: a, log: a.spec.Log, fromSession: make(chan sessionNews), ctxs: newContexts(),
		pending: map[int64]command{}, waiters: map[*waiter]bool{}, reapplyCtx: map[string]bool{},
		reapply: time.NewTimer(time.Hour), redial: time.NewTimer(time.Hour),
	}
	r.reapply.Stop()
	r.redial.Stop()
	r.lookupCtx, r.stopLookups = context.WithCancel(context.Background())
	return r
}

// shutdown stops the session and the subscription, taking the browser's
// events meanwhile so a lossless delivery never waits on this actor.
func (r *run) shutdown(unsubscribe func(), events <-chan browser.Event) {
	r.reapply.Stop()
	r.redial.Stop()
	r.stopLookups()
	r.lookups.Wait()
	r.closeSession()
	for w := range r.waiters {
		w.done <- waitEnd{err: ErrStopped}
	}
	browser.Leave(unsubscribe, events)
}

func (r *run) onBrowser(ev browser.Event) {
	switch ev := ev.(type) {
	case browser.Ready:
		r.connect(ev.Endpoint)
	case browser.Exited:
		r.browserGone(ev.Generation)
	}
}

// connect opens the session with a browser that became ready.
func (r *run) connect(ep browser.Endpoint) {
	if r.sess != nil && r.sess.Gen() == ep.Generation {
		return
	}
	r.closeSession()
	// The dir itself is not made here: Chromium makes it (0700) at the
	// first download, so a coordinator killed before any leaves no empty
	// folder behind.
	r.ep, r.running, r.redials = ep, true, 0
	r.ctxs = newContexts()
	r.sess = startSession(ep, r.fromSession)
}

// browserGone cancels what the exited browser left unfinished.
func (r *run) browserGone(gen int) {
	for _, rec := range r.a.table.browserGone(gen) {
		r.log.Info().Str("download", rec.ID).Str("filename", rec.Filename).Int("generation", gen).
			Msg("download canceled: its browser exited")
		r.finished(rec)
	}
	if r.running && r.ep.Generation == gen {
		r.running = false
		r.redial.Stop()
		r.closeSession()
	}
}

func (r *run) closeSession() {
	if r.sess != nil {
		r.sess.Stop()
		r.sess = nil
	}
	clear(r.pending)
}

func (r *run) current(gen int) bool { return r.sess != nil && r.sess.Gen() == gen }

func (r *run) onSession(m sessionNews) {
	switch m := m.(type) {
	case sessionOpened:
		if r.current(m.Gen) {
			r.opened()
		}
	case sessionEnded:
		if !r.current(m.Gen) {
			return
		}
		r.closeSession()
		// Mostly the browser is exiting, and its exit follows; if it does
		// not, redialDue reconnects.
		r.log.Debug().Err(m.Err).Int("generation", m.Gen).Msg("the downloads connection to the browser ended")
		if r.running && r.redials < redialTries {
			r.redial.Reset(redialDelay)
		} else if r.running {
			r.log.Error().Err(m.Err).Int("generation", m.Gen).
				Msgf("no downloads connection to the browser after %d tries; downloads go where Chromium puts them by default until its next launch", redialTries)
		}
	case sessionMessage:
		if r.current(m.gen) {
			r.onCDP(m.msg)
		}
	case worldAnswer:
		if r.current(m.gen) {
			r.worldKnown(m)
		}
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

func (r *run) redialDue() {
	if r.running && r.sess == nil {
		r.log.Warn().Int("generation", r.ep.Generation).
			Msg("the downloads connection to the running browser ended; reconnecting (meanwhile downloads go where Chromium puts them by default)")
		r.redials++
		r.sess = startSession(r.ep, r.fromSession)
	}
}

// opened sets cdpvisor's download behaviour on the new session: for the
// default context and every context clients made, except where a client
// set its own; then it discovers targets, to learn of later contexts.
func (r *run) opened() {
	r.redials = 0
	if !r.a.clients.held("") {
		r.setBehaviour("")
	}
	for id := range r.ctxs.created {
		if !r.a.clients.held(id) {
			r.setBehaviour(id)
		}
	}
	r.send(command{method: "Target.setDiscoverTargets"}, map[string]any{"discover": true})
}

// setBehaviour has Chromium save the downloads of a context ("" for the
// default one) under their guid into the instance's dir, or into its
// world's folder there, and report them.
func (r *run) setBehaviour(context string) {
	params := map[string]any{"behavior": "allowAndName", "downloadPath": WorldDir(r.a.spec.Dir, r.ctxs.worlds[context]), "eventsEnabled": true}
	if context != "" {
		params["browserContextId"] = context
	}
	r.send(command{method: "Browser.setDownloadBehavior", context: context}, params)
}

func (r *run) send(c command, params any) {
	if r.sess == nil {
		return
	}
	id, ok := r.sess.Send(c.method, params)
	if !ok {
		r.log.Warn().Str("method", c.method).Msg("the browser reads nothing on the downloads connection; command dropped")
		return
	}
	r.pending[id] = c
}

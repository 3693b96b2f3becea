// Package relay is the RelayActor: one client connection, its browser
// connection of the moment, the connection machine, and the recovery that
// keeps a client connected across browser restarts.
package relay

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Spec configures a RelayActor: its client, its first browser connection,
// and how it reaches the browser again.
type Spec struct {
	ID       int64
	Instance string
	Client   transport.Conn
	// Browser is the first browser connection, already open, and the
	// endpoint it belongs to.
	Browser  transport.Conn
	Endpoint browser.Endpoint
	Source   BrowserSource
	// Resilient relays survive the browser (websocket clients of
	// /devtools/browser and of a Firefox's /session); others close with it
	// (pipe clients, page sockets).
	Resilient bool
	// BiDi: the client speaks WebDriver BiDi (a Firefox's /session), not CDP.
	BiDi       bool
	MaxMessage int64
	// Dial opens a browser connection for a recovery; DialBrowser by default.
	Dial             func(ctx context.Context, ep browser.Endpoint, limit int64) (transport.Conn, error)
	BootstrapTimeout time.Duration // 0: the protocol's (10 s for CDP, 1 min for BiDi)
	// OnBrowserClose, when set, takes the client's Browser.close: the relay
	// answers it itself and calls this instead of closing a browser others
	// may share (the bridge decides what its exit stops).
	OnBrowserClose func()
	Traffic        *Traffic // counts what is forwarded; nil: not counted
	// Extensions hears of the extensions the client loads and uninstalls
	// (Extensions.loadUnpacked, Extensions.uninstall); nil: nobody.
	Extensions ExtensionBook
	// Stages are the relay's stages, in their order (stage.go): each
	// feature's part in the client's connection. None: the fast path
	// alone.
	Stages []Stage
	Log    zerolog.Logger
}

// Actor owns one client connection, its browser connection of the
// moment, the connection machine, the queue of requests held during a
// recovery, and the relay's own id space. Messages are forwarded as they
// came: only their heads are read.
type Actor struct {
	spec    Spec
	dialect dialect
	log     zerolog.Logger
}

// New makes a relay; it owns both connections from now on.
func New(spec Spec) *Actor {
	if spec.Dial == nil {
		spec.Dial = DialBrowser
	}
	var d dialect = cdp{}
	if spec.BiDi {
		d = bidi{}
	}
	if spec.BootstrapTimeout <= 0 {
		spec.BootstrapTimeout = d.bootstrapTimeout()
	}
	if len(spec.Stages) > maxStages {
		panic(fmt.Sprintf("relay: %d stages, at most %d", len(spec.Stages), maxStages))
	}
	return &Actor{spec: spec, dialect: d, log: spec.Log.With().Int64("relay", spec.ID).Logger()}
}

func (r *Actor) String() string { return fmt.Sprintf("relay %d", r.spec.ID) }

// Close ends the relay from outside (a restart closes clients with 1012 so
// they reconnect). Safe from any goroutine: the client's reader sees the
// end and the relay releases the rest.
func (r *Actor) Close(code int, reason string) { r.spec.Client.Close(code, reason) }

// Serve relays until the client goes, recovery gives up, or ctx is done.
func (r *Actor) Serve(ctx context.Context) error {
	run := newRelayRun(r, ctx)
	defer run.finish()
	run.start()
	for !run.machine.Is(fsm.ConnClosing) {
		run.resume()
		// The browser's news first: a client request must not be sent to a
		// browser whose end is already known.
		select {
		case m := <-run.fromBrowser:
			run.fromBrowserReader(m)
			continue
		default:
		}
		select {
		case <-ctx.Done():
			run.close(websocket.CloseGoingAway, "cdpvisor is shutting down")
		case m := <-run.fromClient:
			run.pause()
			run.onClient(m)
			m.done()
		case m := <-run.fromBrowser:
			run.fromBrowserReader(m)
		case d := <-run.dialed:
			run.pause()
			run.onDialed(d)
		case then := <-run.later: // a worker's result: a stage's hold ends, a page is prepared
			run.pause()
			then()
		case <-run.bootstrapTimer.C:
			run.pause()
			run.recoveryFailed(fmt.Errorf("the browser did not answer the bootstrap within %s", r.spec.BootstrapTimeout))
		}
	}
	return nil
}

// fromBrowserReader takes what a browser reader handed over: a note of
// what the fast path forwarded needs no pause.
func (run *relayRun) fromBrowserReader(m readResult) {
	if m.note {
		run.onNote(m)
		return
	}
	run.pause()
	run.onBrowser(m)
	m.done()
}

package relay

import (
	"context"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// relayRun is the state a Actor owns while it serves; only the Serve
// goroutine touches it.
type relayRun struct {
	r       *Actor
	ctx     context.Context
	cancel  context.CancelFunc // ends a dial under way
	log     zerolog.Logger
	trace   bool // the logger logs at trace level: each forwarded frame's head is logged
	machine *fsm.Machine

	fromClient  chan readResult
	fromBrowser chan readResult
	dialed      chan dialResult
	quit        chan struct{} // closed at the end: stops the reader and dial goroutines
	workers     sync.WaitGroup

	link           *browserLink
	queue          []*transport.Message
	inflight       map[int64]inflight // client requests the browser has not answered
	sent           uint64             // requests sent, to order inflight
	subscribed     map[string][]byte  // the client's last subscription request per method
	correlator     *fsm.Correlator
	book           *targetBook    // the client's view of targets and sessions
	likely         bool           // disconnectedLikely: a weak signal came shortly before the strong one
	signals        string         // what was seen, for the logs
	attempt        int            // recoveryAttempt
	result         string         // recoveryResult
	bootstrap      string         // recoveryBootstrap
	shortCircuit   bool           // a Browser.close was answered by the relay itself
	pending        map[int64]bool // internal requests awaiting their answer
	autoAttachID   int64          // the bootstrap's own request in this attempt
	replay         [][]byte       // subscriptions still to replay in this bootstrap
	nextID         int64
	lostGen        int // generation of the browser whose connection was lost
	bootstrapTimer *time.Timer
	scratch        []byte
	streamed       countingReader // counts the message being streamed
}

// inflight is a request the browser has not answered yet: its message is
// kept (the pooled buffer, no copy) so it can be sent again to the next
// browser if this one goes away first.
type inflight struct {
	seq uint64
	msg *transport.Message
}

type dialResult struct {
	link    *browserLink
	attempt int
	err     error
}

func newRelayRun(r *Actor, ctx context.Context) *relayRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &relayRun{
		r: r, ctx: ctx, cancel: cancel, log: r.log, trace: traceEnabled(r.log),
		fromClient:     make(chan readResult),
		fromBrowser:    make(chan readResult),
		dialed:         make(chan dialResult),
		quit:           make(chan struct{}),
		inflight:       make(map[int64]inflight, 64),
		subscribed:     map[string][]byte{},
		correlator:     fsm.NewCorrelator(nil),
		book:           newTargetBook(),
		pending:        map[int64]bool{},
		nextID:         internalIDBase,
		bootstrapTimer: time.NewTimer(time.Hour),
	}
	run.bootstrapTimer.Stop()
	run.machine = fsm.NewConnectionMachine(run.logTransition)
	return run
}

func (run *relayRun) logTransition(t fsm.Transition) {
	ep := browser.Endpoint{}
	if run.link != nil {
		ep = run.link.ep
	}
	lvl := zerolog.InfoLevel
	if t.To == fsm.ConnConnected && t.From == fsm.ConnStarting {
		lvl = zerolog.DebugLevel // every client connects: not news
	}
	ev := run.log.WithLevel(lvl).Str("machine", "connection").Str("event", t.Event).Str("from", t.From).
		Str("runtimeState", t.To).Str("transportMode", run.r.spec.Client.Mode()).
		Int("recoveryAttempt", run.attempt).Bool("shortCircuitBrowserClose", run.shortCircuit)
	if run.link != nil {
		ev = ev.Str("ownership", ep.Ownership).Str("userDataDir", ep.UserDataDir).Int("resolvedDebugPort", ep.DebugPort()).
			Int("generation", ep.Generation)
	}
	// The seed's fields, each when it says something: no empty strings.
	for _, f := range [...]struct{ key, val string }{
		{"recoveryResult", run.result}, {"recoveryBootstrap", run.bootstrap}, {"disconnectSignals", run.signals},
	} {
		if f.val != "" {
			ev = ev.Str(f.key, f.val)
		}
	}
	ev.Msg("connection state")
}

func (run *relayRun) fire(event string) {
	if err := run.machine.Fire(event); err != nil {
		run.log.Error().Err(err).Msg("connection machine")
	}
}

// start begins with the browser connection the proxy opened.
func (run *relayRun) start() {
	run.workers.Go(func() { readLoop(run.r.spec.Client, nil, run.fromClient, run.quit) })
	run.useLink(&browserLink{conn: run.r.spec.Browser, ep: run.r.spec.Endpoint})
	run.fire(fsm.ConnConnect)
}

func (run *relayRun) useLink(link *browserLink) {
	run.link = link
	run.workers.Go(func() { readLoop(link.conn, link, run.fromBrowser, run.quit) })
}

// close ends the relay: both ends closed, the machine in closing.
func (run *relayRun) close(code int, reason string) {
	if run.machine.Is(fsm.ConnClosing) {
		return
	}
	run.r.spec.Client.Close(code, reason)
	if run.link != nil {
		run.link.conn.Close(websocket.CloseNormalClosure, "")
	}
	run.fire(fsm.ConnClose)
}

// finish releases everything the run holds and waits for its readers.
func (run *relayRun) finish() {
	run.close(websocket.CloseGoingAway, "")
	run.cancel()
	run.bootstrapTimer.Stop()
	for _, m := range run.queue {
		m.Release()
	}
	for _, req := range run.inflight {
		req.msg.Release()
	}
	run.queue, run.inflight = nil, nil
	close(run.quit)
	run.workers.Wait() // both ends are closed: their readers return
}

// traceEnabled says whether l logs trace events, decided once per relay so
// that the forwarding path tests one bool: the logger's level and the
// global level both let them through.
func traceEnabled(l zerolog.Logger) bool {
	return l.GetLevel() <= zerolog.TraceLevel && zerolog.GlobalLevel() <= zerolog.TraceLevel
}

// Frame directions, as the trace log names them.
const (
	toBrowser = "to_browser"
	toClient  = "to_client"
)

// traceFrame logs one forwarded frame at trace level: its direction, the
// head fields (id, method, sessionId) and its size. Never the payload.
func (run *relayRun) traceFrame(direction string, h *transport.Head, size int64) {
	ev := run.log.Trace().Str("direction", direction)
	if h.HasID {
		ev = ev.Int64("id", h.ID)
	}
	if len(h.Method) > 0 {
		ev = ev.Bytes("method", h.Method)
	}
	if len(h.SessionID) > 0 {
		ev = ev.Bytes("sessionId", h.SessionID)
	}
	ev.Int64("size", size).Msg("cdp frame")
}

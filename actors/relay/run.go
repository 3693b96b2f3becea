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
	quit        chan struct{} // closed at the end: stops the readers and dial goroutines
	workers     sync.WaitGroup
	stopCloser  func() bool // of the context.AfterFunc that closes the client on shutdown

	fast   *fastPath // shared with the readers; switched only here
	fastOn bool      // what the actor last set

	link           *browserLink
	lost           *browserLink // the link whose browser was lost: what it still delivers is late
	queue          []*transport.Message
	inflight       *inflightTable // client requests the browser has not answered
	dialect        dialect
	setup          clientSetup // what the client set up on the browser
	correlator     *fsm.Correlator
	likely         bool           // disconnectedLikely: a weak signal came shortly before the strong one
	signals        string         // what was seen, for the logs
	attempt        int            // recoveryAttempt
	result         string         // recoveryResult
	bootstrap      string         // recoveryBootstrap
	shortCircuit   bool           // a Browser.close was answered by the relay itself
	pending        map[int64]bool // internal requests awaiting their answer
	nextID         int64
	lostGen        int // generation of the browser whose connection was lost
	bootstrapTimer *time.Timer
	scratch        []byte
	streamed       countingReader // counts the message being streamed by the actor
	// stages are the relay's (stage.go), nil when it has none; lines are
	// their places in the chain, one each.
	stages []Stage
	lines  []*Line
	hooks  hooks             // the stages' optional parts (hooks.go)
	asked  map[int64]askedBy // the stages' own requests awaiting their answer (Line.Ask)
	later  chan func()       // what workers leave to the actor: a stage's then, a page prepared
}

type dialResult struct {
	link    *browserLink
	attempt int
	err     error
	rebased func() // the stages' part in that browser, for the actor (Rebaser)
}

func newRelayRun(r *Actor, ctx context.Context) *relayRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &relayRun{
		r: r, ctx: ctx, cancel: cancel, log: r.log, trace: traceEnabled(r.log),
		fromClient:     make(chan readResult),
		fromBrowser:    make(chan readResult),
		dialed:         make(chan dialResult),
		quit:           make(chan struct{}),
		inflight:       newInflightTable(),
		dialect:        r.dialect,
		correlator:     fsm.NewCorrelator(nil),
		pending:        map[int64]bool{},
		nextID:         r.dialect.firstOwnID(),
		bootstrapTimer: time.NewTimer(time.Hour),
		later:          make(chan func()),
	}
	if len(r.spec.Stages) > 0 {
		run.stages = r.spec.Stages
		run.lines = make([]*Line, len(run.stages))
		for i := range run.lines {
			run.lines[i] = &Line{run: run, at: i}
		}
		run.hooks = hooksOf(run.stages)
	}
	run.setup = r.dialect.newSetup(r.log, run.tellExtension)
	run.bootstrapTimer.Stop()
	run.machine = fsm.NewConnectionMachine(run.logTransition)
	run.fast = &fastPath{
		dialect: r.dialect, inflight: run.inflight, client: r.spec.Client, traffic: r.spec.Traffic,
		log: run.log, trace: run.trace, closeHook: r.spec.OnBrowserClose != nil,
		stages: run.stages,
	}
	// On shutdown the client is closed even while the actor waits for a
	// forward to a client that does not read: the write fails, the actor
	// goes on.
	client := r.spec.Client
	run.stopCloser = context.AfterFunc(ctx, func() { client.Close(websocket.CloseGoingAway, "cdpvisor is shutting down") })
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
	run.workers.Go(run.clientReader)
	run.useLink(&browserLink{conn: run.r.spec.Browser, ep: run.r.spec.Endpoint})
	run.fire(fsm.ConnConnect)
}

func (run *relayRun) useLink(link *browserLink) {
	run.link = link
	run.workers.Go(func() { run.browserReader(link) })
}

// pause switches the fast path off before the actor acts: from then on
// the readers hand everything to it, and it may write to either end.
func (run *relayRun) pause() {
	if run.fastOn {
		run.fast.set(nil)
		run.fastOn = false
	}
}

// resume switches the fast path on when the connection is connected: the
// machine decides, the fast path follows.
func (run *relayRun) resume() {
	if !run.fastOn && run.link != nil && run.machine.Is(fsm.ConnConnected) {
		run.fast.set(run.link)
		run.fastOn = true
	}
}

// close ends the relay: both ends closed, the machine in closing. The
// ends are closed first: a forward under way then fails instead of
// holding the fast path.
func (run *relayRun) close(code int, reason string) {
	if run.machine.Is(fsm.ConnClosing) {
		return
	}
	run.r.spec.Client.Close(code, reason)
	if run.link != nil && (run.machine.Is(fsm.ConnConnected) || run.machine.Is(fsm.ConnRecovering)) {
		run.farewell() // recovering: the bootstrap may have made the session already
	}
	if run.link != nil {
		run.link.conn.Close(websocket.CloseNormalClosure, "")
	}
	run.pause()
	run.fire(fsm.ConnClose)
}

// finish releases everything the run holds and waits for its readers.
func (run *relayRun) finish() {
	run.close(websocket.CloseGoingAway, "")
	run.stopCloser()
	run.cancel()
	run.bootstrapTimer.Stop()
	for _, m := range run.queue {
		m.Release()
	}
	for _, m := range run.inflight.takeAll() {
		m.Release()
	}
	run.queue = nil
	close(run.quit)
	run.workers.Wait() // both ends are closed: their readers return
	for _, s := range run.stages {
		s.Close()
	}
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
func traceFrame(log zerolog.Logger, direction string, h *transport.Head, size int64) {
	ev := log.Trace().Str("direction", direction)
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

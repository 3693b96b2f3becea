package actors

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// relayRun is the state a RelayActor owns while it serves; only the Serve
// goroutine touches it.
type relayRun struct {
	r       *RelayActor
	ctx     context.Context
	cancel  context.CancelFunc // ends a dial under way
	log     zerolog.Logger
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

func newRelayRun(r *RelayActor, ctx context.Context) *relayRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &relayRun{
		r: r, ctx: ctx, cancel: cancel, log: r.log,
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
	ep := Endpoint{}
	if run.link != nil {
		ep = run.link.ep
	}
	lvl := zerolog.InfoLevel
	if t.To == fsm.ConnConnected && t.From == fsm.ConnStarting {
		lvl = zerolog.DebugLevel // every client connects: not news
	}
	run.log.WithLevel(lvl).Str("machine", "connection").Str("event", t.Event).Str("from", t.From).
		Str("runtimeState", t.To).Str("transportMode", run.r.spec.Client.Mode()).Str("ownership", ep.Ownership).
		Str("userDataDir", ep.UserDataDir).Str("resolvedDebugPort", portOf(ep.HostPort)).Int("generation", ep.Generation).
		Int("recoveryAttempt", run.attempt).Str("recoveryResult", run.result).Str("recoveryBootstrap", run.bootstrap).
		Bool("shortCircuitBrowserClose", run.shortCircuit).Str("disconnectSignals", run.signals).
		Msg("connection state")
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

// onClient handles a message from the client, or its end.
func (run *relayRun) onClient(m readResult) {
	if m.err != nil {
		run.log.Debug().Err(m.err).Msg("client ended")
		run.close(websocket.CloseNormalClosure, "")
		return
	}
	h, _ := transport.ScanHead(m.msg.B) // a malformed message is forwarded as is: the browser answers it
	if hook := run.r.spec.OnBrowserClose; hook != nil && h.HasID && h.Is("Browser.close") && len(h.SessionID) == 0 {
		run.answerClose(&h)
		m.msg.Release()
		hook()
		return
	}
	switch run.machine.State() {
	case fsm.ConnConnected:
		run.send(m.msg, &h)
	default: // degraded or recovering
		if h.HasID && h.Is("Browser.close") && run.likely {
			run.answerClose(&h)
			m.msg.Release()
			return
		}
		if isSubscription(&h) {
			run.subscribed[string(h.Method)] = append([]byte(nil), m.msg.B...)
		}
		run.queue = append(run.queue, m.msg)
		if run.machine.Is(fsm.ConnDegraded) {
			run.recover()
		}
	}
}

// send forwards a client message to the browser.
func (run *relayRun) send(msg *transport.Message, h *transport.Head) {
	if isSubscription(h) {
		run.subscribed[string(h.Method)] = append(run.subscribed[string(h.Method)][:0], msg.B...)
	}
	if h.HasID {
		run.sent++
		if old, dup := run.inflight[h.ID]; dup {
			old.msg.Release() // the client reused an id: the browser answers the later one
		}
		run.inflight[h.ID] = inflight{seq: run.sent, msg: msg}
	}
	if err := run.link.conn.Write(msg.B, msg.Binary); err != nil {
		if !h.HasID {
			run.queue = append(run.queue, msg) // not delivered: it goes first when a browser is back
		}
		run.browserLost(err)
		return
	}
	if !h.HasID {
		msg.Release()
	}
}

// onBrowser handles a message from a browser connection, or its end.
func (run *relayRun) onBrowser(m readResult) {
	if m.link != run.link {
		if m.msg != nil {
			m.msg.Release()
		}
		return // an old connection's news
	}
	if m.err != nil {
		run.link.conn.Close(websocket.CloseNormalClosure, "")
		if run.machine.Is(fsm.ConnRecovering) {
			run.recoveryFailed(fmt.Errorf("the browser connection closed during the bootstrap: %w", m.err))
			return
		}
		run.browserLost(m.err)
		return
	}
	if m.rest != nil {
		defer func() { m.restDone <- struct{}{} }()
		if !run.stream(m) {
			return
		}
	}
	h, _ := transport.ScanHead(m.msg.B)
	if h.HasID && run.pending[h.ID] {
		run.bootstrapAnswer(&h, m.msg)
		m.msg.Release()
		return
	}
	if h.HasID {
		if req, ok := run.inflight[h.ID]; ok {
			req.msg.Release()
			delete(run.inflight, h.ID)
		}
	} else if len(h.Method) > 0 {
		if fsm.IsWeakSignal(h.Method) {
			run.correlator.Weak(h.Method, m.msg.B)
		}
		if len(h.Method) > 7 && string(h.Method[:7]) == "Target." {
			run.book.note(&h, m.msg.B)
		}
	}
	if err := run.r.spec.Client.Write(m.msg.B, m.msg.Binary); err != nil {
		run.log.Debug().Err(err).Msg("client write failed")
		run.close(websocket.CloseNormalClosure, "")
	}
	m.msg.Release()
}

// stream passes a huge browser message on to the client while it is still
// arriving: only its head, from the first bytes, is needed (an answer's id
// comes first). It returns false when it handled the message; true when the
// message is one of the relay's own answers, read whole into m.msg for the
// usual path.
func (run *relayRun) stream(m readResult) bool {
	h, _ := transport.ScanHeadPrefix(m.msg.B)
	if h.HasID && run.pending[h.ID] {
		if _, err := m.msg.ReadFrom(m.rest); err != nil {
			run.log.Warn().Err(err).Msg("reading an answer to the bootstrap")
		}
		return true
	}
	if h.HasID {
		if req, ok := run.inflight[h.ID]; ok {
			req.msg.Release()
			delete(run.inflight, h.ID)
		}
	}
	err := run.r.spec.Client.WriteStream(m.msg.B, m.rest, m.msg.Binary)
	m.msg.Release()
	if err == nil {
		return false
	}
	var broken *transport.SourceError
	switch {
	case errors.As(err, &broken):
		// The client has half a message and nothing can finish it.
		run.log.Warn().Err(err).Msg("the browser connection broke in the middle of a message")
		run.close(websocket.CloseInternalServerErr, "the browser connection broke in the middle of a message; reconnect")
	default:
		run.log.Debug().Err(err).Msg("client write failed")
		run.close(websocket.CloseNormalClosure, "")
	}
	return false
}

// browserLost handles a strong signal while connected.
func (run *relayRun) browserLost(err error) {
	if !run.machine.Is(fsm.ConnConnected) {
		return
	}
	run.likely, run.signals = run.correlator.Strong(strongSignalName(err))
	run.lostGen = run.link.ep.Generation
	run.link.conn.Close(websocket.CloseNormalClosure, "")
	if !run.r.spec.Resilient {
		run.close(websocket.CloseGoingAway, "the browser connection was lost")
		return
	}
	run.result, run.bootstrap, run.shortCircuit = "", "", false
	run.fire(fsm.ConnBrowserLost)
	run.tellTargetsGone()
	run.requeueInflight()
	if len(run.queue) > 0 {
		run.recover() // the client is waiting on those: recover now
	}
}

// tellTargetsGone tells the client that the lost browser's targets and
// sessions are gone, as the browser would have had it closed them: clients
// drop their stale pages at once instead of failing on them later.
func (run *relayRun) tellTargetsGone() {
	for _, ev := range run.book.goneEvents() {
		if err := run.r.spec.Client.Write(ev, false); err != nil {
			return
		}
	}
}

// requeueInflight puts the requests the lost browser never answered back
// at the head of the queue, in the order they were sent: the next browser
// answers them, so no client call waits forever or fails for a browser that
// is already being replaced. A Browser.close among them got what it asked
// for and is answered at once.
func (run *relayRun) requeueInflight() {
	reqs := make([]inflight, 0, len(run.inflight))
	for _, req := range run.inflight {
		reqs = append(reqs, req)
	}
	clear(run.inflight)
	slices.SortFunc(reqs, func(a, b inflight) int { return cmp.Compare(a.seq, b.seq) })
	requeued := make([]*transport.Message, 0, len(reqs)+len(run.queue))
	for _, req := range reqs {
		h, _ := transport.ScanHead(req.msg.B)
		if h.Is("Browser.close") && len(h.SessionID) == 0 {
			run.answerClose(&h)
			req.msg.Release()
			continue
		}
		requeued = append(requeued, req.msg)
	}
	run.queue = append(requeued, run.queue...)
}

// answerClose answers Browser.close itself: the browser is already gone.
func (run *relayRun) answerClose(h *transport.Head) {
	run.shortCircuit = true
	msg := appendSession(fmt.Appendf(run.scratch[:0], `{"id":%d,"result":{}`, h.ID), h.SessionID)
	run.scratch = msg
	run.log.Info().Int64("id", h.ID).Bool("shortCircuitBrowserClose", true).Str("disconnectSignals", run.signals).
		Msg("answered Browser.close for a browser already gone")
	if err := run.r.spec.Client.Write(msg, false); err != nil {
		run.close(websocket.CloseNormalClosure, "")
	}
}

func appendSession(msg, session []byte) []byte {
	if len(session) > 0 {
		msg = fmt.Appendf(msg, `,"sessionId":%q`, session)
	}
	return append(msg, '}')
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

func strongSignalName(err error) string {
	var ce *websocket.CloseError
	switch {
	case err == nil:
		return "READER_CLOSE"
	case asWSClose(err, &ce) && ce.Code == websocket.CloseAbnormalClosure:
		return "ConnectionClosedPrematurely"
	case asWSClose(err, &ce):
		return fmt.Sprintf("READER_CLOSE(%d)", ce.Code)
	}
	return "READER_ERROR"
}

func asWSClose(err error, target **websocket.CloseError) bool {
	ce, ok := err.(*websocket.CloseError)
	if ok {
		*target = ce
	}
	return ok
}

func portOf(hostPort string) string {
	for i := len(hostPort) - 1; i >= 0; i-- {
		if hostPort[i] == ':' {
			return hostPort[i+1:]
		}
	}
	return ""
}

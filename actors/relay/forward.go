package relay

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// onClient handles a message from the client, or its end.
func (run *relayRun) onClient(m readResult) {
	if m.err != nil {
		run.log.Debug().Err(m.err).Msg("client ended")
		run.close(websocket.CloseNormalClosure, "")
		return
	}
	h, _ := transport.ScanHead(m.msg.B) // a malformed message is forwarded as is: the browser answers it
	if run.stages != nil {
		f := &Frame{Dir: ToBrowser, Head: h, Msg: m.msg}
		run.edge(f) // as it arrived, whatever comes of it
		if run.hooks.greeters != nil && run.greet(f) {
			return
		}
	}
	if hook := run.r.spec.OnBrowserClose; hook != nil && run.dialect.closesBrowser(&h) {
		run.answerClose(&h)
		m.msg.Release()
		hook()
		return
	}
	switch run.machine.State() {
	case fsm.ConnConnected:
		run.send(m.msg, &h)
	default: // degraded or recovering
		if h.HasID && run.setup.answeredWhileGone(&h, run.likely) {
			run.answerClose(&h)
			m.msg.Release()
			return
		}
		if run.replays(m.msg.B) {
			run.setup.queued(&h, m.msg.B) // a subscription a stage would refuse is not the client's
		}
		run.queue = append(run.queue, m.msg)
		if run.machine.Is(fsm.ConnDegraded) {
			run.recover()
		}
	}
}

// send forwards a client message to the browser, through the stages.
func (run *relayRun) send(msg *transport.Message, h *transport.Head) { run.sendFrom(0, msg, h) }

// sendOn forwards a client message the stages let through to the browser.
// sub is the subscription as it came to the stages (sendFrom); nil: msg
// came to the stages as it is.
func (run *relayRun) sendOn(msg *transport.Message, h *transport.Head, sub *keptSub) {
	watch := unwatched
	if run.dialect.kept(h) {
		watch = run.book(sub, msg, h)
	}
	run.forward(msg, h, watch)
}

// forward writes a client message to the browser, noting a request in
// flight.
func (run *relayRun) forward(msg *transport.Message, h *transport.Head, watch watching) {
	size := len(msg.B)
	if run.trace {
		traceFrame(run.log, toBrowser, h, int64(size))
	}
	if h.HasID {
		run.inflight.add(h.ID, msg, watch)
	}
	if err := run.link.conn.Write(msg.B, msg.Binary); err != nil {
		if !h.HasID {
			run.queue = append(run.queue, msg) // not delivered: it goes first when a browser is back
		}
		run.browserLost(err)
		return
	}
	run.r.spec.Traffic.toBrowser(size)
	if !h.HasID {
		msg.Release()
	}
}

// onBrowser handles a message from a browser connection, or its end.
func (run *relayRun) onBrowser(m readResult) {
	if m.forwardErr != nil {
		// Whichever link it was: the client missed a message, or has half.
		run.forwardFailed(m.forwardErr)
		return
	}
	if m.link != run.link || m.link == run.lost {
		run.lateNews(m)
		return
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
	if m.rest != nil && !run.stream(m) {
		return
	}
	h, _ := transport.ScanHead(m.msg.B)
	if h.HasID && run.pending[h.ID] {
		run.bootstrapAnswer(&h, m.msg)
		m.msg.Release()
		return
	}
	if h.HasID && run.asked != nil && run.answerAsked(&h, m.msg) {
		m.msg.Release()
		return
	}
	books := true // an event, for the setup and the correlator as the client gets it
	if h.HasID {
		books = run.inflight.answered(h.ID) != unwatched
	}
	size := int64(len(m.msg.B))
	if run.trace {
		traceFrame(run.log, toClient, &h, size)
	}
	if written, err := run.toClient(len(run.stages), m.msg, &h, false, nil, books); err != nil {
		run.forwardFailed(err)
	} else if written {
		run.r.spec.Traffic.toClient(size)
	}
}

// lateNews is what a lost browser connection still delivers: the error
// that ends it, events (dropped: the client was told its targets are
// gone), and answers the browser sent before it went, which the reader
// had read already. Such an answer is passed on if its request still
// waits in the queue (it is then not sent again); if the request went to
// the next browser already, that browser answers it and this is dropped.
// Either way the client gets one answer.
func (run *relayRun) lateNews(m readResult) {
	if m.msg == nil {
		return
	}
	h, _ := transport.ScanHead(m.msg.B)
	if m.rest != nil || !h.HasID {
		m.msg.Release()
		return
	}
	for i, q := range run.queue {
		qh, _ := transport.ScanHead(q.B)
		if qh.HasID && qh.ID == h.ID && string(qh.SessionID) == string(h.SessionID) {
			run.queue = slices.Delete(run.queue, i, i+1)
			q.Release()
			size := int64(len(m.msg.B))
			if written, err := run.toClient(len(run.stages), m.msg, &h, false, nil, false); err != nil {
				run.forwardFailed(err)
			} else if written {
				run.r.spec.Traffic.toClient(size)
			}
			return
		}
	}
	m.msg.Release()
}

// onNote takes an event or a watched answer the fast path already
// forwarded, for the books.
func (run *relayRun) onNote(m readResult) {
	if m.link == run.link {
		h, _ := transport.ScanHead(m.msg.B)
		if h.HasID {
			run.setup.answered(&h, m.msg.B)
		} else {
			run.noteEvent(&h, m.msg.B)
		}
	}
	m.msg.Release()
}

// noteEvent keeps what the relay needs of a browser event: weak signals
// for the correlator, what the client knows for the setup.
func (run *relayRun) noteEvent(h *transport.Head, msg []byte) {
	if fsm.IsWeakSignal(h.Method) {
		run.correlator.Weak(h.Method, msg)
	}
	run.setup.event(h, msg)
}

// forwardFailed ends the relay after a message could not reach the
// client: the client is gone, or the browser connection broke in the
// middle of a message the client has half of, which nothing can finish.
func (run *relayRun) forwardFailed(err error) {
	var broken *transport.SourceError
	if errors.As(err, &broken) {
		run.log.Warn().Err(err).Msg("the browser connection broke in the middle of a message")
		run.close(websocket.CloseInternalServerErr, "the browser connection broke in the middle of a message; reconnect")
		return
	}
	run.log.Debug().Err(err).Msg("client write failed")
	run.close(websocket.CloseNormalClosure, "")
}

// stream passes a huge browser message on to the client while it is still
// arriving: only its head, from the first bytes, is needed (an answer's id
// comes first). It returns false when it handled the message; true when the
// message is one of the relay's own answers, read whole into m.msg for the
// usual path.
func (run *relayRun) stream(m readResult) bool {
	h, _ := transport.ScanHeadPrefix(m.msg.B)
	var f *Frame
	var observers uint64
	claimed := false
	if run.stages != nil {
		f = &Frame{Dir: ToClient, Head: h, Msg: m.msg, Partial: true}
		observers, claimed = looks(run.stages, f)
	}
	_, asked := run.asked[h.ID]
	if (h.HasID && (run.pending[h.ID] || asked)) || claimed {
		if _, err := m.msg.ReadFrom(m.rest); err != nil {
			run.log.Warn().Err(err).Msg("reading an answer to the bootstrap")
		}
		return true
	}
	if h.HasID {
		// Read by no book: watched answers are small, except a getTree of
		// hundreds of contexts, whose contexts then go unbooked.
		run.inflight.answered(h.ID)
	}
	if observers != 0 {
		observe(run.stages, f, observers) // at the client's edge: no stage claimed it
	}
	run.streamed = countingReader{r: m.rest}
	err := run.r.spec.Client.WriteStream(m.msg.B, &run.streamed, m.msg.Binary)
	n := int64(len(m.msg.B)) + run.streamed.n
	run.streamed.r = nil
	if err == nil && run.trace {
		traceFrame(run.log, toClient, &h, n) // its head is in the first bytes, still held
	}
	m.msg.Release()
	if err != nil {
		run.forwardFailed(err)
		return false
	}
	run.r.spec.Traffic.toClient(n)
	return false
}

// answerClose answers a request that closes the browser (or a BiDi
// session) itself: the browser is already gone.
func (run *relayRun) answerClose(h *transport.Head) {
	run.shortCircuit = true
	msg := run.dialect.success(run.scratch[:0], h)
	run.scratch = msg
	run.log.Info().Int64("id", h.ID).Bytes("method", h.Method).Bool("shortCircuitBrowserClose", true).Str("disconnectSignals", run.signals).
		Msg("answered a close for a browser already gone")
	if _, err := run.answer(len(run.stages), msg, nil); err != nil {
		run.close(websocket.CloseNormalClosure, "")
	}
}

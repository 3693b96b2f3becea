package relay

import (
	"errors"
	"fmt"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// browserLost handles a strong signal while connected.
func (run *relayRun) browserLost(err error) {
	if !run.machine.Is(fsm.ConnConnected) {
		return
	}
	run.likely, run.signals = run.correlator.Strong(strongSignalName(err))
	run.lostGen = run.link.ep.Generation
	run.lost = run.link
	run.link.conn.Close(websocket.CloseNormalClosure, "")
	if !run.r.spec.Resilient {
		run.close(websocket.CloseGoingAway, "the browser connection was lost")
		return
	}
	run.result, run.bootstrap, run.shortCircuit = "", "", false
	run.fire(fsm.ConnBrowserLost)
	run.tellTargetsGone()
	if run.hooks.requeuers != nil || run.asked != nil {
		run.queue = append(run.requeue(), run.queue...)
	}
	run.requeueInflight()
	if len(run.queue) > 0 {
		run.recover() // the client is waiting on those: recover now
	}
}

// tellTargetsGone tells the client that the lost browser's targets and
// sessions are gone, as the browser would have had it closed them: clients
// drop their stale pages at once instead of failing on them later.
func (run *relayRun) tellTargetsGone() {
	for _, ev := range run.setup.gone() {
		if _, err := run.answer(len(run.stages), ev, nil); err != nil {
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
	reqs := run.inflight.takeAll()
	requeued := make([]*transport.Message, 0, len(reqs)+len(run.queue))
	for _, msg := range reqs {
		h, _ := transport.ScanHead(msg.B)
		if run.dialect.closesBrowser(&h) {
			run.answerClose(&h)
			msg.Release()
			continue
		}
		requeued = append(requeued, msg)
	}
	run.queue = append(requeued, run.queue...)
}

func strongSignalName(err error) string {
	var ce *websocket.CloseError
	switch {
	case err == nil:
		return "READER_CLOSE"
	case errors.Is(err, transport.ErrPipeClosed):
		return "PIPE_CLOSED"
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

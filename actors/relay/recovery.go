package relay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/remedy"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// maxRecoveryAttempts: the first try, and one more with a fresh browser.
const maxRecoveryAttempts = 2

// recover reaches a browser for the queued requests: from degraded to
// recovering, a browser from the BrowserActor (the same one if it still
// answers, else one launch however many relays ask; a fresh one on the
// retry), a new connection to it.
func (run *relayRun) recover() {
	run.fire(fsm.ConnRecover)
	run.attempt++
	src, dial, limit, wait := run.r.spec.Source, run.r.spec.Dial, run.r.spec.MaxMessage, run.r.spec.BootstrapTimeout
	ctx, gen, fresh, attempt := run.ctx, run.lostGen, run.attempt > 1, run.attempt
	rebasers := run.hooks.rebasers
	run.workers.Go(func() {
		demand := func() (browser.Endpoint, error) {
			if fresh {
				return src.Replace(ctx, gen)
			}
			return src.EnsureRunning(ctx)
		}
		ep, err := demand()
		// A launch that failed a moment ago holds demands back for its
		// backoff window: the retry waits it out once (within the
		// bootstrap's time) rather than give the client up on a browser
		// that may well start now (one that failed under load, say).
		var held *browser.BackoffError
		if errors.As(err, &held) && held.RetryIn() <= wait {
			select {
			case <-time.After(held.RetryIn()):
				ep, err = demand()
			case <-ctx.Done():
			}
		}
		var conn transport.Conn
		if err == nil {
			conn, err = dial(ctx, ep, limit)
			if err != nil && !fresh && ep.Generation == gen {
				// The lost browser is still on record but does not answer: it
				// is dying and its actor has not heard yet. Replace it.
				if ep, err = src.Replace(ctx, gen); err == nil {
					conn, err = dial(ctx, ep, limit)
				}
			}
		}
		d := dialResult{attempt: attempt, err: err}
		if d.err == nil && rebasers != nil {
			// The stages' part in this browser (the world's context made
			// again after a crash), within the bootstrap's time: a browser
			// that does not answer fails this attempt, as its bootstrap
			// would.
			rctx, cancel := context.WithTimeout(ctx, wait)
			d.rebased, d.err = rebase(rctx, rebasers, ep)
			cancel()
			if d.err != nil {
				conn.Close(websocket.CloseNormalClosure, "")
			}
		}
		if d.err == nil {
			d.link = &browserLink{conn: conn, ep: ep}
		}
		select {
		case run.dialed <- d:
		case <-run.quit:
			if d.link != nil {
				d.link.conn.Close(websocket.CloseNormalClosure, "")
			}
		}
	})
}

// onDialed starts the bootstrap on the new browser connection.
func (run *relayRun) onDialed(d dialResult) {
	if !run.machine.Is(fsm.ConnRecovering) || d.attempt != run.attempt {
		if d.link != nil {
			d.link.conn.Close(websocket.CloseNormalClosure, "")
		}
		return
	}
	if d.err != nil {
		run.recoveryFailed(fmt.Errorf("no browser: %w", d.err))
		return
	}
	run.result = "attached"
	if d.link.ep.Generation != run.lostGen {
		run.result = "relaunched"
	}
	run.useLink(d.link)
	clear(run.asked) // what the stages asked of another browser
	if d.rebased != nil {
		d.rebased()
	}
	run.correlator.Reset()
	run.bootstrap = "started"
	run.bootstrapTimer.Reset(run.r.spec.BootstrapTimeout)
	run.sendOwn(run.setup.bootstrap(run.internalID))
	run.flushWhenSetUp() // at once when there was nothing to set up
}

func (run *relayRun) internalID() int64 {
	id := run.nextID
	run.nextID--
	return id
}

// sendOwn sends the relay's own requests; their answers go to
// bootstrapAnswer.
func (run *relayRun) sendOwn(reqs []ownRequest) {
	for _, req := range reqs {
		if run.link == nil {
			return // a failed send ended this attempt
		}
		if run.hooks.replayers != nil {
			var ok bool
			if req.msg, ok = run.replay(req.msg); !ok {
				continue
			}
		}
		run.pending[req.id] = true
		if err := run.link.conn.Write(req.msg, false); err != nil {
			run.recoveryFailed(fmt.Errorf("the bootstrap could not be sent: %w", err))
		}
	}
}

// bootstrapAnswer swallows the answer to an internal request and moves the
// bootstrap on; the queue goes once nothing of it is pending.
func (run *relayRun) bootstrapAnswer(h *transport.Head, msg *transport.Message) {
	delete(run.pending, h.ID)
	more, err := run.setup.bootstrapAnswer(h, msg.B, run.internalID)
	if err != nil {
		run.recoveryFailed(err)
		return
	}
	run.sendOwn(more)
	run.flushWhenSetUp()
}

// flushWhenSetUp flushes the queue once the bootstrap has nothing pending
// on this attempt's browser. A send that failed started another attempt
// (no link yet): its own bootstrap flushes.
func (run *relayRun) flushWhenSetUp() {
	if run.link != nil && len(run.pending) == 0 && run.machine.Is(fsm.ConnRecovering) {
		run.flush()
	}
}

// flush sends the queued requests in order, now that the browser is ready.
func (run *relayRun) flush() {
	run.bootstrapTimer.Stop()
	run.bootstrap = "acknowledged"
	run.fire(fsm.ConnRecovered)
	run.attempt, run.likely = 0, false
	queue := run.queue
	run.queue = nil
	for i, m := range queue {
		if !run.machine.Is(fsm.ConnConnected) {
			run.queue = append(run.queue, queue[i:]...) // the browser went again: keep the rest
			return
		}
		h, _ := transport.ScanHead(m.B)
		run.send(m, &h)
	}
}

// recoveryFailed retries once with a fresh browser, then gives up and
// closes the client with the reason.
func (run *relayRun) recoveryFailed(err error) {
	run.bootstrapTimer.Stop()
	clear(run.pending)
	clear(run.asked)
	run.result = "failed"
	if run.link != nil && run.bootstrap == "started" {
		run.bootstrap = "failed"
		run.lostGen = run.link.ep.Generation
	}
	if run.link != nil {
		run.link.conn.Close(websocket.CloseNormalClosure, "")
		run.link = nil
	}
	run.log.Warn().Err(err).Int("recoveryAttempt", run.attempt).Msg("recovery failed")
	if errors.Is(err, browser.ErrNotRunning) {
		// Nothing to relaunch: the client stays, its requests fail saying
		// what to do, and its next request looks again.
		run.fire(fsm.ConnRecoveryFailed)
		run.attempt = 0
		run.failQueued(err)
		return
	}
	if run.attempt >= maxRecoveryAttempts {
		run.close(websocket.CloseInternalServerErr, "cdpvisor could not recover the browser: "+err.Error())
		return
	}
	run.fire(fsm.ConnRecoveryFailed)
	run.recover()
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// failQueued answers every queued request with err, explained with its
// fixes, as a CDP error; queued messages without an id are dropped.
func (run *relayRun) failQueued(err error) {
	text := "cdpvisor: " + remedy.Explain(err, nil)
	for _, m := range run.queue {
		if h, _ := transport.ScanHead(m.B); h.HasID {
			msg := transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"error":{"code":-32000,"message":%q}`, h.ID, text), h.SessionID)
			if _, werr := run.answer(len(run.stages), msg, nil); werr != nil {
				run.close(websocket.CloseNormalClosure, "")
			}
		}
		m.Release()
	}
	run.queue = run.queue[:0]
}

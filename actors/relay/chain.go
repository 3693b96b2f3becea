package relay

import (
	"bytes"
	"context"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// How a relay runs its stages (stage.go). The fast path asks them with
// looks and calls the observers with observe; the actor runs a frame
// through the claims of the stages on its way (stagesToBrowser,
// stagesToClient) and past the observers at the client's edge (edge).

// looks asks each stage what it wants of f: claimed when one claims it
// (the fast path then leaves f to the actor), else the stages that observe
// it, one bit each.
func looks(stages []Stage, f *Frame) (observers uint64, claimed bool) {
	for i, s := range stages {
		l := s.Look(f)
		if l&Claim != 0 {
			return 0, true
		}
		if l&Observe != 0 {
			observers |= 1 << i
		}
	}
	return observers, false
}

// observe calls the observers of f (looks' bits) in the frame's order: a
// client's frame meets the stages first to last, a frame to the client
// last to first.
func observe(stages []Stage, f *Frame, observers uint64) {
	if f.Dir == ToBrowser {
		for i, s := range stages {
			if observers&(1<<i) != 0 {
				s.Observe(f)
			}
		}
		return
	}
	for i := len(stages) - 1; i >= 0; i-- {
		if observers&(1<<i) != 0 {
			stages[i].Observe(f)
		}
	}
}

// edge has the stages that observe f see it at the client's edge, in the
// actor.
func (run *relayRun) edge(f *Frame) {
	var observers uint64
	for i, s := range run.stages {
		if s.Look(f)&Observe != 0 {
			observers |= 1 << i
		}
	}
	if observers != 0 {
		observe(run.stages, f, observers)
	}
}

// stagesToBrowser runs a client's frame through the claims of the stages
// from at to the last; true: it goes on to the browser (f.Msg and f.Head as
// the stages left them), false: a stage answered, held or dropped it.
func (run *relayRun) stagesToBrowser(at int, f *Frame) bool {
	for i := at; i < len(run.stages); i++ {
		if !run.verdict(i, f) {
			return false
		}
	}
	return true
}

// stagesToClient runs a frame to the client through the claims of the
// stages before at, from the last to the first; true: it goes on to the
// client.
func (run *relayRun) stagesToClient(at int, f *Frame) bool {
	for i := at - 1; i >= 0; i-- {
		if !run.verdict(i, f) {
			return false
		}
	}
	return true
}

// verdict hands f to stage i if it claims it; true: f goes on. A frame
// answered or dropped is released; a held one is the stage's.
func (run *relayRun) verdict(i int, f *Frame) bool {
	s := run.stages[i]
	if s.Look(f)&Claim == 0 {
		return true
	}
	switch s.Handle(run.lines[i], f) {
	case Pass:
		return true
	case Hold:
	default: // answered or dropped
		f.Msg.Release()
	}
	return false
}

// sendFrom sends a client's message to the browser through the stages from
// at on; a message a stage sent on while no browser is there waits in the
// queue for the next one. The client's setup books a subscription on the
// client's side of the stages: as it came to them, once they let it
// through (keptAsSent).
func (run *relayRun) sendFrom(at int, msg *transport.Message, h *transport.Head) {
	var sub *keptSub
	if at < len(run.stages) {
		sub = run.keptAsSent(msg, h)
		f := &Frame{Dir: ToBrowser, Head: *h, Msg: msg}
		if !run.stagesToBrowser(at, f) {
			return
		}
		msg, *h = f.Msg, f.Head
	}
	if run.link == nil || !run.machine.Is(fsm.ConnConnected) {
		// booked when the queue is sent
		run.queue = append(run.queue, msg) // the browser went meanwhile: the recovery sends it
		if run.machine.Is(fsm.ConnDegraded) {
			run.recover()
		}
		return
	}
	run.sendOn(msg, h, sub)
}

// keptSub is a subscription as the client sent it, before the stages (or
// a stage) rewrote it: what the setup books for the recovery.
type keptSub struct {
	msg  transport.Message
	head transport.Head
}

// keptAsSent copies a subscription the setup keeps, before the stages or
// a stage see it; nil for anything else.
func (run *relayRun) keptAsSent(msg *transport.Message, h *transport.Head) *keptSub {
	if !run.dialect.kept(h) {
		return nil
	}
	sub := &keptSub{msg: transport.Message{B: append([]byte(nil), msg.B...), Binary: msg.Binary}}
	sub.head, _ = transport.ScanHead(sub.msg.B)
	return sub
}

// book has the setup book a subscription on its way to the browser: as
// the client sent it (sub) when the stages rewrote it, else
// msg itself, which the setup may rewrite (ids the client knows from an
// earlier browser).
func (run *relayRun) book(sub *keptSub, msg *transport.Message, h *transport.Head) watching {
	if sub != nil && !bytes.Equal(sub.msg.B, msg.B) {
		return run.setup.sent(&sub.head, &sub.msg) // CDP's reads and copies it, rewriting nothing
	}
	watch := run.setup.sent(h, msg)
	*h, _ = transport.ScanHead(msg.B) // it may have been rewritten
	return watch
}

// toClient writes a message to the client (the browser's, or one the relay
// or a stage made) after the claims of the stages before at (all of them:
// len(run.stages)) and the observers at the client's edge, and releases
// it. written: it reached the client (false: a stage kept or dropped it,
// or the write failed with err).
//
// books, for a browser's frame, has the client's setup book it on the
// client's side of the stages, as the client gets it: an event, or the
// answer to a watched request.
func (run *relayRun) toClient(at int, msg *transport.Message, h *transport.Head, made bool, refused *Refusal, books bool) (written bool, err error) {
	if run.stages != nil {
		f := &Frame{Dir: ToClient, Head: *h, Msg: msg, Made: made, Refused: refused}
		if !run.stagesToClient(at, f) {
			return false, nil
		}
		if books {
			run.booksOf(&f.Head, f.Msg.B)
		}
		run.edge(f)
		msg = f.Msg
	} else if books {
		run.booksOf(h, msg.B)
	}
	err = run.r.spec.Client.Write(msg.B, msg.Binary)
	msg.Release()
	return err == nil, err
}

// answer writes b, an answer of the relay's or of stage at's own, to the
// client through the stages before at and the observers; b stays the
// caller's. With no stage it is written as it is.
func (run *relayRun) answer(at int, b []byte, refused *Refusal) (written bool, err error) {
	if run.stages == nil {
		err = run.r.spec.Client.Write(b, false)
		return err == nil, err
	}
	msg := transport.NewMessage()
	msg.B = append(msg.B[:0], b...)
	h, _ := transport.ScanHead(msg.B)
	return run.toClient(at, msg, &h, true, refused, false)
}

// booksOf has the client's setup book a browser frame the client gets,
// and the correlator note an event's weak signal, as the client gets it:
// what a stage kept from the client (another world's page detached,
// dropped by its wall) is no news of the browser's end.
func (run *relayRun) booksOf(h *transport.Head, msg []byte) {
	if h.HasID {
		run.setup.answered(h, msg)
	} else {
		run.noteEvent(h, msg)
	}
}

// goThen runs work off the actor on a worker the relay owns; the func it
// returns, if any, runs in the actor afterwards (Serve's later).
func (run *relayRun) goThen(work func(ctx context.Context) func()) {
	run.workers.Go(func() {
		then := work(run.ctx)
		if then == nil {
			return
		}
		select {
		case run.later <- then:
		case <-run.quit:
		}
	})
}

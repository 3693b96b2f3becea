package relay

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// What a stage may take part in besides its frames: the optional
// interfaces below, each asked once when the relay starts (a stage that
// declares none costs nothing more), and the Line's capabilities (Ask,
// Connected, Endpoint, Context, Close). A stage declares what it implements with
// interface guards: var _ relay.Rebaser = (*myStage)(nil).

// Greeter is a stage that takes a client's frame when it arrives, whatever
// the state of the browser connection: before the queue that holds a
// client's frames while no browser is there (a Browser.close that must
// reach no browser). Greet is called, in the actor, for each client frame
// its Look claims, before Handle would be; Pass: the frame goes on its
// way as usual (to the queue, or to the stages and the browser).
type Greeter interface {
	Greet(l *Line, f *Frame) Verdict
}

// Requeuer is a stage that holds client frames when the browser is lost:
// Lost gives back what it holds that must be sent again to the next
// browser, in order; they go ahead of the queue and meet every stage
// again. What the stage asked of the lost browser (Line.Ask) is void.
type Requeuer interface {
	Lost() []*transport.Message
}

// Rebaser is a stage with a part in each new browser the relay reaches
// after one was lost. Rebase runs in the relay's dial worker, off the
// actor, within the bootstrap's time (ctx), once the new browser at ep
// answers; an error fails the attempt (the relay closes that connection
// and retries as after a failed bootstrap). The then it returns, if any,
// runs in the actor before the bootstrap starts on that browser.
type Rebaser interface {
	Rebase(ctx context.Context, ep browser.Endpoint) (then func(), err error)
}

// Replayer is a stage with a say in what the relay replays on a new
// browser: each subscription of the client's the bootstrap sends again
// (out is what goes, perhaps rewritten; false: it is not sent), and a
// subscription the client sent while no browser was there (false: the
// client's setup does not keep it, the stage would not let it through).
type Replayer interface {
	Replay(msg []byte) (out []byte, ok bool)
}

// hooks are the stages' optional parts, by kind, in the chain's order.
type hooks struct {
	greeters  []int // stages that are Greeters, by place
	requeuers []Requeuer
	rebasers  []Rebaser
	replayers []Replayer
}

func hooksOf(stages []Stage) hooks {
	var hk hooks
	for i, s := range stages {
		if _, ok := s.(Greeter); ok {
			hk.greeters = append(hk.greeters, i)
		}
		if r, ok := s.(Requeuer); ok {
			hk.requeuers = append(hk.requeuers, r)
		}
		if r, ok := s.(Rebaser); ok {
			hk.rebasers = append(hk.rebasers, r)
		}
		if r, ok := s.(Replayer); ok {
			hk.replayers = append(hk.replayers, r)
		}
	}
	return hk
}

// greet has the greeters that claim a client's frame take it as it
// arrives; true: one took it (answered or dropped it; it is released).
func (run *relayRun) greet(f *Frame) bool {
	for _, i := range run.hooks.greeters {
		s := run.stages[i]
		if s.Look(f)&Claim == 0 {
			continue
		}
		if s.(Greeter).Greet(run.lines[i], f) != Pass {
			f.Msg.Release()
			return true
		}
	}
	return false
}

// replays says the replayers would let a subscription through.
func (run *relayRun) replays(msg []byte) bool {
	if run.hooks.replayers == nil {
		return true
	}
	_, ok := run.replay(msg)
	return ok
}

// requeue is what the stages give back when the browser is lost, first
// stage first.
func (run *relayRun) requeue() []*transport.Message {
	var again []*transport.Message
	for _, r := range run.hooks.requeuers {
		again = append(again, r.Lost()...)
	}
	clear(run.asked)
	return again
}

// rebase runs the stages' parts in a new browser (in the dial worker);
// then runs their thens in the actor.
func rebase(ctx context.Context, rebasers []Rebaser, ep browser.Endpoint) (then func(), err error) {
	var thens []func()
	for _, r := range rebasers {
		t, err := r.Rebase(ctx, ep)
		if err != nil {
			return nil, err
		}
		if t != nil {
			thens = append(thens, t)
		}
	}
	if len(thens) == 0 {
		return nil, nil
	}
	return func() {
		for _, t := range thens {
			t()
		}
	}, nil
}

// replay has the replayers judge one of the relay's own replayed
// requests; false: it is not sent.
func (run *relayRun) replay(msg []byte) ([]byte, bool) {
	for _, r := range run.hooks.replayers {
		var ok bool
		if msg, ok = r.Replay(msg); !ok {
			return nil, false
		}
	}
	return msg, true
}

// Ask sends a request of the stage's own to the browser: req makes it
// with the id it is given, from the relay's own range (no client's); the
// answer goes to then, in the actor, and no further: no other stage, no
// client sees it. false: nothing was sent (no browser is there), or the
// write failed and the browser is lost (the stage hears of it: Lost).
// The answer's frame is the relay's: then reads it, keeps nothing of it.
func (l *Line) Ask(req func(id int64) []byte, then func(l *Line, answer *Frame)) bool {
	run := l.run
	if run.link == nil {
		return false
	}
	id := run.internalID()
	if run.asked == nil {
		run.asked = map[int64]askedBy{}
	}
	run.asked[id] = askedBy{line: l, then: then}
	if err := run.link.conn.Write(req(id), false); err != nil {
		delete(run.asked, id)
		run.browserLost(err)
		return false
	}
	return true
}

// askedBy is a stage's own request awaiting its answer.
type askedBy struct {
	line *Line
	then func(l *Line, answer *Frame)
}

// answerAsked hands the answer to a stage's own request to the stage;
// false: it answers no stage's.
func (run *relayRun) answerAsked(h *transport.Head, msg *transport.Message) bool {
	a, ok := run.asked[h.ID]
	if !ok {
		return false
	}
	delete(run.asked, h.ID)
	if a.then != nil {
		a.then(a.line, &Frame{Dir: ToClient, Head: *h, Msg: msg})
	}
	return true
}

// Connected says a browser is there to send to: a frame a stage sends on
// now goes to it, else to the queue for the next one (where it meets the
// stages again when it is sent).
func (l *Line) Connected() bool { return l.run.link != nil && l.run.machine.Is(fsm.ConnConnected) }

// Endpoint is the browser of the moment: the one connected, or else the
// one the relay started with.
func (l *Line) Endpoint() browser.Endpoint {
	if l.run.link != nil {
		return l.run.link.ep
	}
	return l.run.r.spec.Endpoint
}

// Context is the relay's: done when the relay ends. For what a stage asks
// of its feature from the actor (with a timeout of its own).
func (l *Line) Context() context.Context { return l.run.ctx }

// Close ends the relay: the client is closed with code and reason, as
// when the client's end goes.
func (l *Line) Close(code int, reason string) { l.run.close(code, reason) }

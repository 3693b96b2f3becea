package relay

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// Line is a stage's place in its relay's chain: what the stage may do
// there. Its methods belong to the relay's actor: a stage calls them from
// Handle, or from the then of its Go.
type Line struct {
	run *relayRun
	at  int // the stage's place in the chain
}

// Answer writes msg, the stage's own answer to a client request, to the
// client: the stages before this one and the observers see it go (Made;
// refused, when set, says why the stage refused the request).
func (l *Line) Answer(msg []byte, refused *Refusal) {
	if written, err := l.run.answer(l.at, msg, refused); err != nil {
		l.run.forwardFailed(err)
	} else if written {
		l.run.r.spec.Traffic.toClient(int64(len(msg)))
	}
}

// Send sends on a frame the stage held: a client's through the stages after
// this one to the browser (or, while no browser is there, to the queue of
// the next one), a frame to the client through the stages before this one
// to the client (the client's setup books an event as the client gets it).
// The frame is the relay's again.
func (l *Line) Send(dir Direction, msg *transport.Message) {
	h, _ := transport.ScanHead(msg.B)
	if dir == ToBrowser {
		l.run.sendFrom(l.at+1, msg, &h)
		return
	}
	size := int64(len(msg.B))
	if written, err := l.run.toClient(l.at, msg, &h, false, nil, !h.HasID); err != nil {
		l.run.forwardFailed(err)
	} else if written {
		l.run.r.spec.Traffic.toClient(size)
	}
}

// Go runs work off the actor, on a goroutine the relay owns and waits for
// when it ends (ctx is done then): what a hold waits for, say. The then
// work returns, if not nil, runs in the actor afterwards, where the stage
// may Send what it held.
func (l *Line) Go(work func(ctx context.Context) (then func(*Line))) {
	l.run.goThen(func(ctx context.Context) func() {
		if then := work(ctx); then != nil {
			return func() { then(l) }
		}
		return nil
	})
}

// Log is the relay's logger.
func (l *Line) Log() *zerolog.Logger { return &l.run.log }

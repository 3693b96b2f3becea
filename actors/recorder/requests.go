package recorder

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/plug"
)

// request is what the actor hears through its mailbox: a closed set, the
// types below and no others.
type request interface{ isRecorderRequest() }

type (
	// instanceMade and instanceClosed: an instance to follow, or not.
	instanceMade   struct{ inst plug.Instance }
	instanceClosed struct{ id string }
	// fromInstance is what an instance's feeder hands over.
	fromInstance struct {
		id  string
		msg feedNews
	}
	// switchAsked sets a world's record switch (a world request's record).
	switchAsked struct {
		world string
		on    bool
		reply chan error
	}
	// worldEnded: a world request closed it; forgotten: its recording goes.
	worldEnded struct {
		world     string
		forgotten bool
		reply     chan struct{}
	}
	// readable flushes a world's recording and says whether it has one.
	readable struct {
		world string
		reply chan readableAnswer
	}
	// statusAsked answers a world's recording's status (the live view's).
	statusAsked struct {
		world string
		reply chan Status
	}
	// totalsAsked answers every recording together.
	totalsAsked struct{ reply chan Totals }
	// contextKnown is the world a page's browser context is (""
	// none), as the instance's WorldsActor answered.
	contextKnown struct {
		id, context, world string
		gen                int
	}
)

type readableAnswer struct {
	has bool
	err error
}

func (instanceMade) isRecorderRequest()   {}
func (instanceClosed) isRecorderRequest() {}
func (fromInstance) isRecorderRequest()   {}
func (switchAsked) isRecorderRequest()    {}
func (worldEnded) isRecorderRequest()     {}
func (readable) isRecorderRequest()       {}
func (statusAsked) isRecorderRequest()    {}
func (contextKnown) isRecorderRequest()   {}
func (totalsAsked) isRecorderRequest()    {}

// refuse answers a request the actor cannot serve with err.
func refuse(m request, err error) {
	switch m := m.(type) {
	case switchAsked:
		m.reply <- err
	case worldEnded:
		close(m.reply)
	case readable:
		m.reply <- readableAnswer{err: err}
	case statusAsked:
		m.reply <- Status{}
	case totalsAsked:
		m.reply <- Totals{}
	}
}

// SetSwitch turns the world's recording on or off; a named world keeps it
// (a fresh agent-… world's goes with it).
func (a *Actor) SetSwitch(ctx context.Context, world string, on bool) error {
	got, err := ask(ctx, a, func(r chan error) request { return switchAsked{world: world, on: on, reply: r} })
	if err != nil {
		return err
	}
	return got
}

// Ended tells the recorder a world request closed the world; forgotten:
// its recording is deleted.
func (a *Actor) Ended(ctx context.Context, world string, forgotten bool) {
	_, _ = ask(ctx, a, func(r chan struct{}) request { return worldEnded{world: world, forgotten: forgotten, reply: r} })
}

// StatusOf is the world's recording as it stands.
func (a *Actor) StatusOf(ctx context.Context, world string) (Status, error) {
	return ask(ctx, a, func(r chan Status) request { return statusAsked{world: world, reply: r} })
}

// TotalsOf is every recording of the coordinator together.
func (a *Actor) TotalsOf(ctx context.Context) (Totals, error) {
	return ask(ctx, a, func(r chan Totals) request { return totalsAsked{reply: r} })
}

// send hands the actor a message unless ctx ends first.
func (a *Actor) send(ctx context.Context, m request) bool {
	return actor.Send(ctx, a.mailbox, m) == nil
}

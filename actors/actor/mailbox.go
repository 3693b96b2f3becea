// Package actor holds what every actor uses: its mailbox (Send, Ask, and
// Unknown for a message outside its closed set) and its logs
// (SupervisorHook, StdLogger).
package actor

import (
	"context"
	"fmt"

	"github.com/rs/zerolog"
)

// Send delivers msg to an actor's mailbox unless ctx ends first.
func Send[M any](ctx context.Context, mailbox chan<- M, msg M) error {
	select {
	case mailbox <- msg:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("actor unavailable: %w", ctx.Err())
	}
}

// Ask sends an actor the request made around a fresh reply channel and
// waits for the answer. The channel is buffered: an actor never blocks on a
// caller that gave up.
func Ask[M, T any](ctx context.Context, mailbox chan<- M, request func(reply chan T) M) (T, error) {
	reply := make(chan T, 1)
	var zero T
	if err := Send(ctx, mailbox, request(reply)); err != nil {
		return zero, err
	}
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// UnknownMessage is the panic of an actor whose dispatch met a message it
// has no case for.
type UnknownMessage struct {
	Actor string // the actor's name (its String)
	Type  string // the message's Go type
}

func (u UnknownMessage) Error() string {
	return u.Actor + ": no case for message " + u.Type
}

// Unknown ends an actor's dispatch on a message of its closed set that has
// no case: a bug (a message added without its handling), never a caller's
// doing. Dropping it would leave an Ask's caller waiting until its deadline
// with nothing in the logs, and a message has no generic way to be
// answered. So it is logged at error level and panics: called on the
// actor's own goroutine (its Serve), suture recovers the panic, logs it
// with its stack (SupervisorHook) and restarts the actor.
func Unknown(log zerolog.Logger, actor string, msg any) {
	u := UnknownMessage{Actor: actor, Type: fmt.Sprintf("%T", msg)}
	log.Error().Str("actor", u.Actor).Str("messageType", u.Type).Msg("an actor got a message it has no case for")
	panic(u)
}

// Package actor holds what every actor uses: its mailbox (Send, Ask) and
// its logs (SupervisorHook, StdLogger).
package actor

import (
	"context"
	"fmt"
)

// Send delivers msg to an actor's mailbox unless ctx ends first.
func Send(ctx context.Context, mailbox chan<- any, msg any) error {
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
func Ask[T any](ctx context.Context, mailbox chan<- any, request func(reply chan T) any) (T, error) {
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

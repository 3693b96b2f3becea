package wrapenv

import (
	"context"
	"os"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Discover searches for a coordinator as wrap does; a signal stops the
// search, and is answered instead.
func Discover(o state.DiscoverOptions, sigs <-chan os.Signal) (state.Target, os.Signal, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		t   state.Target
		err error
	}
	done := make(chan result, 1)
	go func() {
		t, err := state.Discover(ctx, o)
		done <- result{t, err}
	}()
	select {
	case r := <-done:
		return r.t, nil, r.err
	case sig := <-sigs:
		cancel()
		<-done
		return state.Target{}, sig, nil
	}
}

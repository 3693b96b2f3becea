// Package relaytest serves a relay in a test: the one way the tests of the
// relay and of its stages' rooms run one (it imports no room, so a stage's
// own package may use it).
package relaytest

import (
	"context"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// Serve runs a relay of spec until the test ends, when its client closes
// and the relay must end within 5 s.
func Serve(t testing.TB, client *actortest.ChanConn, spec relay.Spec) *relay.Actor {
	t.Helper()
	r := relay.New(spec)
	served := make(chan struct{})
	go func() { _ = r.Serve(context.Background()); close(served) }()
	t.Cleanup(func() {
		client.Close(1000, "")
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the relay did not end")
		}
	})
	return r
}

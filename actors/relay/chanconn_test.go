package relay_test

import (
	"context"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// serveRelay runs a relay of spec until the test ends, when its client
// closes and the relay must end within 5 s.
func serveRelay(t *testing.T, client *actortest.ChanConn, spec relay.Spec) {
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
}

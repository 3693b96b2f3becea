package wall

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// serve runs the relay of a client of world w (whose context is "W" in
// browser b, generation 1) until stop.
func serve(client, b transport.Conn, w World) (stop func()) {
	r := relay.New(relay.Spec{
		ID: 1, Client: client, Browser: b, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{New(w, "W", 1)}, Log: zerolog.Nop(),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = r.Serve(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// exchange sends requests through the relay of a client of world w over
// browser b, one at a time, and answers what the client got.
func exchange(t *testing.T, w World, b transport.Conn, requests []string) (got []string) {
	t.Helper()
	client := actortest.NewChanConn()
	stop := serve(client, b, w)
	defer stop()
	for _, r := range requests {
		client.In <- []byte(r)
		select {
		case m := <-client.Out:
			got = append(got, string(m))
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer to %s", r)
		}
	}
	return got
}

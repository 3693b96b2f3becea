package wall

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/relaytest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// serve runs, until the test ends, the relay of client, a client of world
// w (whose context is "W" in browser b, generation 1).
func serve(t *testing.T, client *actortest.ChanConn, b transport.Conn, w World) {
	relaytest.Serve(t, client, relay.Spec{
		ID: 1, Client: client, Browser: b, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{New(w, "W", 1)}, Log: zerolog.New(zerolog.NewTestWriter(t)),
	})
}

// exchange sends requests through the relay of a client of world w over
// browser b, one at a time, and answers what the client got.
func exchange(t *testing.T, w World, b transport.Conn, requests []string) (got []string) {
	t.Helper()
	client := actortest.NewChanConn()
	serve(t, client, b, w)
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

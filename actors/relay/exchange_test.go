package relay

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// recordingBrowser answers each request with its id and keeps a copy of
// every message it was sent.
type recordingBrowser struct {
	*memConn
	mu   sync.Mutex
	sent [][]byte
}

func (r *recordingBrowser) Write(msg []byte, _ bool) error {
	h := headOf(msg)
	r.mu.Lock()
	r.sent = append(r.sent, append([]byte(nil), msg...))
	r.mu.Unlock()
	answer := fmt.Sprintf(`{"id":%d,"result":{"value":"the page's answer"},"sessionId":"S1"}`, h)
	if bytes.Contains(msg, []byte(`"Page.navigate"`)) {
		answer = fmt.Sprintf(`{"id":%d,"error":{"code":-32000,"message":"Cannot navigate to invalid URL"},"sessionId":"S1"}`, h)
	}
	r.in <- []byte(answer)
	return nil
}

func headOf(msg []byte) int64 {
	var id int64
	fmt.Sscanf(string(msg[bytes.Index(msg, []byte(`"id":`))+5:]), "%d", &id)
	return id
}

// exchange sends requests through a relay with stages (none: nil), one at
// a time, and answers what the browser was sent and what the client got.
func exchange(t *testing.T, stages []Stage, requests []string) (sent, got []string) {
	t.Helper()
	b := &recordingBrowser{memConn: newMemConn()}
	client := newMemConn()
	relay := New(Spec{
		ID: 1, Client: client, Browser: b, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: stages, Log: zerolog.Nop(),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = relay.Serve(ctx); close(done) }()
	for _, r := range requests {
		client.in <- []byte(r)
		select {
		case <-client.out:
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer to %s", r)
		}
		got = append(got, string(client.last))
	}
	cancel()
	<-done
	for _, m := range b.sent {
		sent = append(sent, string(m))
	}
	return sent, got
}

// roundTrip starts a relay between an in-memory client and a browser that
// answers every request with response, with stages. round sends request
// and waits for its answer (a view of it, good until the next round); stop
// ends the relay.
func roundTrip(stages []Stage, response []byte) (round func(request []byte) []byte, stop func()) {
	client := newMemConn()
	echo := &echoBrowser{memConn: newMemConn(), response: response}
	spec := Spec{ID: 1, Client: client, Browser: echo, Endpoint: browser.Endpoint{Generation: 1}, Resilient: true, Stages: stages, Log: zerolog.Nop()}
	relay := New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = relay.Serve(ctx); close(done) }()
	round = func(request []byte) []byte {
		client.in <- request
		<-client.out
		return client.last
	}
	return round, func() { cancel(); <-done }
}

package relay

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/transport"
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

// exchange sends requests through a world relay (with tap, or none) and
// answers what the browser was sent and what the client got.
func exchange(t *testing.T, tap *journal.Tap, requests []string) (sent, got []string) {
	t.Helper()
	b := &recordingBrowser{memConn: newMemConn()}
	got = relayExchange(t, benchWorld{}, b, tap, requests)
	for _, m := range b.sent {
		sent = append(sent, string(m))
	}
	return sent, got
}

// relayExchange sends requests through a relay of world w over browser b
// (with tap, or none), one at a time, and answers what the client got.
func relayExchange(t *testing.T, w World, b transport.Conn, tap *journal.Tap, requests []string) (got []string) {
	t.Helper()
	client := newMemConn()
	relay := New(Spec{
		ID: 1, Client: client, Browser: b, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, World: w, WorldContext: "W", Journal: tap, Log: zerolog.Nop(),
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
	return got
}

// A world relay with a journal forwards exactly what one without does,
// both ways, and its journal holds each command with its answer and no
// parameter but Page.navigate's URL.
func TestJournalLeavesForwardingAlone(t *testing.T) {
	requests := []string{
		`{"id":1,"method":"Page.navigate","params":{"url":"http://a.test/","referrer":"SECRET-REFERRER"},"sessionId":"S1"}`,
		`{"id":2,"method":"Runtime.evaluate","params":{"expression":"SECRET-EXPRESSION"},"sessionId":"S1"}`,
		`{"id":3,"method":"Input.dispatchMouseEvent","params":{"type":"mousePressed","x":1,"y":2},"sessionId":"S1"}`,
	}
	a := journal.New(journal.Spec{Dir: filepath.Join(t.TempDir(), "journal"), Log: zerolog.Nop()})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	defer func() { cancel(); <-served }()

	sentPlain, gotPlain := exchange(t, nil, requests)
	sentJournal, gotJournal := exchange(t, a.Tap("bench", journal.Client{ID: 1}), requests)
	if strings.Join(sentPlain, "\n") != strings.Join(sentJournal, "\n") || strings.Join(gotPlain, "\n") != strings.Join(gotJournal, "\n") {
		t.Fatalf("with the journal the relay forwarded\n%q\n%q\nwithout\n%q\n%q", sentJournal, gotJournal, sentPlain, gotPlain)
	}
	var entries []journal.Entry
	for end := time.Now().Add(5 * time.Second); len(entries) < 3 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		entries, _ = a.Read(context.Background(), "bench", journal.Since{}, false)
	}
	want := []string{"Page.navigate http://a.test/ error Cannot navigate to invalid URL", "Runtime.evaluate  ok ", "Input.dispatchMouseEvent  ok "}
	if len(entries) != len(want) {
		t.Fatalf("journal %+v", entries)
	}
	for i, e := range entries {
		if got := fmt.Sprintf("%s %s %s %s", e.Method, e.URL, e.Answer, e.Error); got != want[i] || e.Target != "session S1" || e.Client.ID != 1 {
			t.Errorf("entry %d: %q (target %q), want %q", i, got, e.Target, want[i])
		}
	}
}

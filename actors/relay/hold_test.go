package relay_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// testHold is a hold the test takes and hands back.
type testHold struct {
	mu    sync.Mutex
	back  chan struct{} // nil: not held
	acted atomic.Int64
}

func (h *testHold) Held() (bool, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.back != nil, h.back
}

func (h *testHold) Acted() { h.acted.Add(1) }

func (h *testHold) take() {
	h.mu.Lock()
	h.back = make(chan struct{})
	h.mu.Unlock()
}

func (h *testHold) handBack() {
	h.mu.Lock()
	close(h.back)
	h.back = nil
	h.mu.Unlock()
}

// While a human holds the world, the client's input and navigation wait
// and its reads go on; handed back, what waited reaches the browser in the
// order the client sent it, before anything the client sends after.
func TestHeldWorldKeepsInputAndNavigationUntilHandedBack(t *testing.T) {
	client, chromium := newChanConn(), newChanConn()
	hold := &testHold{}
	serveRelay(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Hold: hold, Log: zerolog.New(zerolog.NewTestWriter(t))})
	expect := func(id int64, method string) {
		t.Helper()
		if h := scan(t, chromium.next(t)); !h.HasID || h.ID != id || !h.Is(method) {
			t.Fatalf("Chromium got %+v, want %d %s", h, id, method)
		}
	}
	client.in <- []byte(`{"id":1,"method":"Input.dispatchKeyEvent","params":{"type":"char","text":"a"},"sessionId":"S"}`)
	expect(1, "Input.dispatchKeyEvent") // not held: on its way at once
	hold.take()
	client.in <- []byte(`{"id":2,"method":"Input.insertText","params":{"text":"b"},"sessionId":"S"}`)
	client.in <- []byte(`{"id":3,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"S"}`)
	client.in <- []byte(`{"id":4,"method":"Page.navigate","params":{"url":"about:blank"},"sessionId":"S"}`)
	client.in <- []byte(`{"id":5,"method":"DOM.getDocument","sessionId":"S"}`)
	expect(3, "Runtime.evaluate")
	expect(5, "DOM.getDocument")
	select {
	case b := <-chromium.out:
		t.Fatalf("Chromium got %s while the world was held", b)
	case <-time.After(300 * time.Millisecond):
	}
	hold.handBack()
	expect(2, "Input.insertText")
	expect(4, "Page.navigate")
	client.in <- []byte(`{"id":6,"method":"Page.reload","sessionId":"S"}`)
	expect(6, "Page.reload")
	if n := hold.acted.Load(); n < 4 {
		t.Errorf("the hold heard of %d acts, want at least 4 (each input and navigation)", n)
	}
}

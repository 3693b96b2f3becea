package liveview

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

// While a human holds the world, the client's input and navigation wait
// and its reads go on; handed back, what waited reaches the browser in the
// order the client sent it, before anything the client sends after. Each
// input and navigation tells the world's gate it acted. (The hold is a
// stage of the world client's relay: a relay with its world's gate.)
func TestHeldWorldKeepsInputAndNavigationUntilHandedBack(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	g := &gate{}
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{&hold{g: g}}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	expect := func(id int64, method string) {
		t.Helper()
		if h, _ := transport.ScanHead(chromium.Next(t)); !h.HasID || h.ID != id || !h.Is(method) {
			t.Fatalf("Chromium got %+v, want %d %s", h, id, method)
		}
	}
	acts := 0
	acted := func() { // the client's last input or navigation was noted
		t.Helper()
		for end := time.Now().Add(5 * time.Second); g.acted.Load() == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("the gate did not hear of act %d", acts+1)
			}
		}
		acts++
		g.acted.Store(0)
	}
	client.In <- []byte(`{"id":1,"method":"Input.dispatchKeyEvent","params":{"type":"char","text":"a"},"sessionId":"S"}`)
	expect(1, "Input.dispatchKeyEvent") // not held: on its way at once
	acted()
	g.take()
	client.In <- []byte(`{"id":2,"method":"Input.insertText","params":{"text":"b"},"sessionId":"S"}`)
	acted()
	client.In <- []byte(`{"id":3,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"S"}`)
	client.In <- []byte(`{"id":4,"method":"Page.navigate","params":{"url":"about:blank"},"sessionId":"S"}`)
	acted()
	client.In <- []byte(`{"id":5,"method":"DOM.getDocument","sessionId":"S"}`)
	expect(3, "Runtime.evaluate")
	expect(5, "DOM.getDocument")
	select {
	case b := <-chromium.Out:
		t.Fatalf("Chromium got %s while the world was held", b)
	case <-time.After(300 * time.Millisecond):
	}
	g.handBack()
	expect(2, "Input.insertText")
	expect(4, "Page.navigate")
	client.In <- []byte(`{"id":6,"method":"Page.reload","sessionId":"S"}`)
	expect(6, "Page.reload")
	acted()
	if acts < 4 {
		t.Errorf("the hold heard of %d acts, want at least 4 (each input and navigation)", acts)
	}
}

package relay_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/relaytest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A BiDi client connected as Puppeteer connects (session.new, then
// browsingContext.getTree, which lists Firefox's first tab, then
// session.subscribe, after which Firefox tells of no context that was
// already there) is told, when Firefox dies, that the first tab is gone as
// well as the tab it made: else Puppeteer lists the first tab's page for
// ever, a page of a dead browser.
func TestBiDiClientIsToldTheContextsOfGetTreeAreGone(t *testing.T) {
	client, firefox := actortest.NewChanConn(), actortest.NewChanConn()
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: firefox, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, BiDi: true, Log: zerolog.New(zerolog.NewTestWriter(t))})

	// call sends a client request, answers it from Firefox with result and
	// checks the client gets the answer.
	call := func(id int, method, params, result string) {
		t.Helper()
		client.In <- fmt.Appendf(nil, `{"id":%d,"method":%q,"params":%s}`, id, method, params)
		if h := scan(t, firefox.Next(t)); !h.HasID || h.ID != int64(id) || !h.Is(method) {
			t.Fatalf("Firefox got %+v, want %s", h, method)
		}
		firefox.In <- fmt.Appendf(nil, `{"type":"success","id":%d,"result":%s}`, id, result)
		if h := scan(t, client.Next(t)); !h.HasID || h.ID != int64(id) {
			t.Fatalf("the client got %+v, want the answer to %d", h, id)
		}
	}
	call(1, "session.new", `{"capabilities":{}}`, `{"sessionId":"s","capabilities":{}}`)
	call(2, "browsingContext.getTree", `{}`, `{"contexts":[{"context":"first","url":"about:blank","userContext":"default",`+
		`"originalOpener":null,"clientWindow":"w","parent":null,"children":[]}]}`)
	call(3, "session.subscribe", `{"events":["browsingContext","network","log","script","input"]}`, `{"subscription":"sub"}`)
	firefox.In <- []byte(`{"type":"event","method":"browsingContext.contextCreated","params":{"context":"made","url":"about:blank",` +
		`"userContext":"default","originalOpener":null,"clientWindow":"w","parent":null,"children":null}}`)
	if h := scan(t, client.Next(t)); !h.Is("browsingContext.contextCreated") {
		t.Fatalf("the client got %+v, want contextCreated", h)
	}

	firefox.Close(1006, "") // Firefox is killed
	var destroyed []string
	for range 2 {
		var ev struct {
			Method string
			Params struct{ Context string }
		}
		if err := json.Unmarshal(client.Next(t), &ev); err != nil || ev.Method != "browsingContext.contextDestroyed" {
			t.Fatalf("after the kill the client got %+v (%v), want contextDestroyed", ev, err)
		}
		destroyed = append(destroyed, ev.Params.Context)
	}
	if strings.Join(destroyed, " ") != "first made" {
		t.Fatalf("destroyed %v, want the first tab and the one made", destroyed)
	}
	select {
	case b := <-client.Out:
		t.Fatalf("then %s, want nothing more", b)
	case <-time.After(100 * time.Millisecond):
	}
}

func scan(t *testing.T, msg []byte) transport.Head {
	t.Helper()
	h, err := transport.ScanHead(msg)
	if err != nil {
		t.Fatalf("%s: %v", msg, err)
	}
	return h
}

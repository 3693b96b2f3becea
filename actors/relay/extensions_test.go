package relay_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/relaytest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
)

// bookCalls records what a relay tells its ExtensionBook, in order.
type bookCalls chan string

func (b bookCalls) Loaded(_ context.Context, id string, gen int) error {
	b <- fmt.Sprintf("loaded %s in %d", id, gen)
	return nil
}

func (b bookCalls) Uninstalled(_ context.Context, id string) error {
	b <- "uninstalled " + id
	return nil
}

// The relay tells the book what a client's Extensions.loadUnpacked and
// uninstall did before the client has the answer (the extension may
// connect at once), on the root and on a session; failed requests and
// other answers tell it nothing.
func TestExtensionRequestsReachTheBookBeforeTheClient(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	book := make(bookCalls, 8)
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 3},
		Resilient: true, Extensions: book, Log: zerolog.New(zerolog.NewTestWriter(t))})
	const id = "gkahdbgdkgcbeocccgcbeflaakhgcpec"
	// call sends a request on session (root when ""), answers it with
	// answer and returns what the book was told by the time the client has
	// the answer.
	call := func(n int, session, method, params, answer string) []string {
		t.Helper()
		sess := ""
		if session != "" {
			sess = fmt.Sprintf(`,"sessionId":%q`, session)
		}
		client.In <- fmt.Appendf(nil, `{"id":%d,"method":%q,"params":%s%s}`, n, method, params, sess)
		if h := scan(t, chromium.Next(t)); !h.Is(method) {
			t.Fatalf("Chromium got %+v, want %s", h, method)
		}
		chromium.In <- fmt.Appendf(nil, `{"id":%d,%s%s}`, n, answer, sess)
		if h := scan(t, client.Next(t)); !h.HasID || h.ID != int64(n) {
			t.Fatalf("the client got %+v, want the answer to %d", h, n)
		}
		var told []string
		for {
			select {
			case c := <-book:
				told = append(told, c)
			default:
				return told
			}
		}
	}
	check := func(got []string, want ...string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("the book was told %q, want %q", got, want)
		}
	}
	check(call(1, "", "Extensions.loadUnpacked", `{"path":"/x"}`, fmt.Sprintf(`"result":{"id":%q}`, id)), "loaded "+id+" in 3")
	check(call(2, "", "Extensions.loadUnpacked", `{"path":"/nothing"}`, `"error":{"code":-32000,"message":"Manifest file is missing or unreadable"}`))
	check(call(3, "", "Runtime.evaluate", `{"expression":"1"}`, `"result":{"result":{"type":"number","value":1}}`))
	check(call(4, "B1", "Extensions.uninstall", fmt.Sprintf(`{"id":%q}`, id), `"result":{}`), "uninstalled "+id)
	check(call(5, "", "Extensions.uninstall", `{"id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`, `"error":{"code":-32000,"message":"Uninstall failed. Reason: could not find extension."}`))
}

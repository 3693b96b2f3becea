package relay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// bidiClient drives a bidiSetup as the relay does, for one client.
type bidiClient struct {
	t     *testing.T
	setup clientSetup
	next  int64
}

func newBidiClient(t *testing.T) *bidiClient {
	return &bidiClient{t: t, setup: bidi{}.newSetup(zerolog.Nop(), nil), next: bidiOwnIDBase}
}

func (c *bidiClient) ownID() int64 { id := c.next; c.next--; return id }

func head(t *testing.T, msg string) transport.Head {
	t.Helper()
	h, err := transport.ScanHead([]byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// send passes a client request through the setup as the relay sends it,
// and returns what reaches the browser.
func (c *bidiClient) send(id int64, method, params string) (sent string, watch bool) {
	msg := transport.NewMessage()
	msg.B = fmt.Appendf(msg.B[:0], `{"id":%d,"method":%q,"params":%s}`, id, method, params)
	h := head(c.t, string(msg.B))
	if (bidi{}).kept(&h) {
		watch = c.setup.sent(&h, msg) != unwatched
	}
	return string(msg.B), watch
}

// answer gives the setup the browser's answer to a watched request.
func (c *bidiClient) answer(id int64, result string) {
	msg := fmt.Sprintf(`{"type":"success","id":%d,"result":%s}`, id, result)
	h := head(c.t, msg)
	c.setup.answered(&h, []byte(msg))
}

func (c *bidiClient) event(method, params string) {
	msg := fmt.Sprintf(`{"type":"event","method":%q,"params":%s}`, method, params)
	h := head(c.t, msg)
	c.setup.event(&h, []byte(msg))
}

// recover runs a bootstrap against a browser that answers each request
// with answers[method] (the result JSON), and returns the requests sent.
func (c *bidiClient) recover(answers map[string]string) []string {
	var sent []string
	queue := c.setup.bootstrap(c.ownID)
	for len(queue) > 0 {
		req := queue[0]
		queue = queue[1:]
		var cmd bidiCommand
		if err := json.Unmarshal(req.msg, &cmd); err != nil || cmd.ID != req.id {
			c.t.Fatalf("bootstrap request %s: %v", req.msg, err)
		}
		sent = append(sent, cmd.Method+" "+string(cmd.Params))
		result, ok := answers[cmd.Method]
		msg := fmt.Sprintf(`{"type":"success","id":%d,"result":%s}`, req.id, result)
		if !ok {
			msg = fmt.Sprintf(`{"type":"error","id":%d,"error":"invalid argument","message":"no"}`, req.id)
		}
		h := head(c.t, msg)
		more, err := c.setup.bootstrapAnswer(&h, []byte(msg), c.ownID)
		if err != nil {
			c.t.Fatalf("bootstrap: %v", err)
		}
		queue = append(queue, more...)
	}
	return sent
}

// The next browser gets the client's session and what it added, in order;
// the ids the client holds name the new browser's resources in later
// requests.
func TestBiDiSetupIsMadeAgainAndIDsMapped(t *testing.T) {
	c := newBidiClient(t)
	if _, watch := c.send(1, "session.new", `{"capabilities":{"alwaysMatch":{"acceptInsecureCerts":true}}}`); !watch {
		t.Fatal("session.new not watched")
	}
	c.answer(1, `{"sessionId":"s1","capabilities":{}}`)
	c.send(2, "session.subscribe", `{"events":["browsingContext"]}`)
	c.answer(2, `{"subscription":"sub-A"}`)
	c.send(3, "script.addPreloadScript", `{"functionDeclaration":"() => {}"}`)
	c.answer(3, `{"script":"script-A"}`)
	c.send(4, "session.subscribe", `{"events":["log.entryAdded"]}`)
	// 4 is never answered: the browser went. It is sent again, and seen then.
	c.setup.gone()

	got := c.recover(map[string]string{
		"session.new":             `{"sessionId":"s2","capabilities":{}}`,
		"session.subscribe":       `{"subscription":"sub-B"}`,
		"script.addPreloadScript": `{"script":"script-B"}`,
	})
	want := []string{
		`session.new {"capabilities":{"alwaysMatch":{"acceptInsecureCerts":true}}}`,
		`session.subscribe {"events":["browsingContext"]}`,
		`script.addPreloadScript {"functionDeclaration":"() => {}"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bootstrap sent:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sent, _ := c.send(5, "session.unsubscribe", `{"subscriptions":["sub-A"]}`); !strings.Contains(sent, `["sub-B"]`) {
		t.Fatalf("unsubscribe sent %s, want the new browser's id sub-B", sent)
	}
	if sent, _ := c.send(6, "script.removePreloadScript", `{"script":"script-A"}`); !strings.Contains(sent, `"script-B"`) {
		t.Fatalf("removePreloadScript sent %s, want script-B", sent)
	}
	// Both removed: the next browser gets the session alone.
	c.setup.gone()
	if got := c.recover(map[string]string{"session.new": `{}`}); len(got) != 1 {
		t.Fatalf("after the removals the bootstrap sent %v, want session.new alone", got)
	}
	// Ids that were never mapped go as they are.
	if sent, _ := c.send(7, "session.unsubscribe", `{"subscriptions":["other"]}`); !strings.Contains(sent, `["other"]`) {
		t.Fatalf("an unknown id was rewritten: %s", sent)
	}
}

// What the next browser refuses (made for a lost context) is dropped, and
// the recovery goes on; a refused session.new fails it.
func TestBiDiSetupRefusals(t *testing.T) {
	c := newBidiClient(t)
	c.send(1, "session.new", `{"capabilities":{}}`)
	c.answer(1, `{}`)
	c.send(2, "network.addIntercept", `{"phases":["beforeRequestSent"],"contexts":["gone"]}`)
	c.answer(2, `{"intercept":"i1"}`)
	c.setup.gone()
	if got := c.recover(map[string]string{"session.new": `{}`}); len(got) != 2 {
		t.Fatalf("bootstrap %v, want session.new and the intercept", got)
	}
	c.setup.gone()
	if got := c.recover(map[string]string{"session.new": `{}`}); len(got) != 1 {
		t.Fatalf("the refused intercept was replayed again: %v", got)
	}
	c.setup.gone()
	reqs := c.setup.bootstrap(c.ownID)
	msg := fmt.Sprintf(`{"type":"error","id":%d,"error":"session not created","message":"Maximum number of active sessions"}`, reqs[0].id)
	h := head(t, msg)
	if _, err := c.setup.bootstrapAnswer(&h, []byte(msg), c.ownID); err == nil || !strings.Contains(err.Error(), "Maximum number of active sessions") {
		t.Fatalf("a refused session.new: %v", err)
	}
}

// When the browser goes, a client subscribed to browsing-context events is
// told its top-level contexts are destroyed (frames go with their tab);
// one that is not subscribed is told nothing.
func TestBiDiGoneContexts(t *testing.T) {
	for _, subscribed := range []bool{true, false} {
		c := newBidiClient(t)
		c.send(1, "session.new", `{"capabilities":{}}`)
		c.answer(1, `{}`)
		if subscribed {
			c.send(2, "session.subscribe", `{"events":["browsingContext.contextCreated","browsingContext.contextDestroyed"]}`)
			c.answer(2, `{"subscription":"s"}`)
		}
		c.event("browsingContext.contextCreated", `{"context":"tab1","url":"about:blank","children":null,"userContext":"default"}`)
		c.event("browsingContext.contextCreated", `{"context":"frame1","parent":"tab1","url":"about:blank","children":null}`)
		c.event("browsingContext.contextCreated", `{"context":"tab2","url":"about:blank","children":null,"userContext":"default"}`)
		c.event("browsingContext.contextCreated", `{"context":"tab3","url":"about:blank","children":null,"userContext":"default"}`)
		c.event("browsingContext.contextDestroyed", `{"context":"tab3","url":"about:blank","children":null}`)
		gone := c.setup.gone()
		if !subscribed {
			if len(gone) != 0 {
				t.Fatalf("not subscribed, told %q", gone)
			}
			continue
		}
		var contexts []string
		for _, ev := range gone {
			var e struct {
				Type, Method string
				Params       struct{ Context, UserContext string }
			}
			if err := json.Unmarshal(ev, &e); err != nil || e.Type != "event" || e.Method != "browsingContext.contextDestroyed" {
				t.Fatalf("gone event %s: %v", ev, err)
			}
			contexts = append(contexts, e.Params.Context+"/"+e.Params.UserContext)
		}
		if strings.Join(contexts, " ") != "tab1/default tab2/default" {
			t.Fatalf("destroyed %v, want tab1 and tab2 with their info", contexts)
		}
		if again := c.setup.gone(); len(again) != 0 {
			t.Fatalf("told twice: %q", again)
		}
	}
}

// A context the client learnt from browsingContext.getTree (the first tab
// of a fresh Firefox, there before the client subscribed: Firefox sends no
// contextCreated for it) is told destroyed too, with its frames' tab; one the
// browser destroyed since, or that getTree found refused, is not.
func TestBiDiGoneContextsOfGetTree(t *testing.T) {
	c := newBidiClient(t)
	c.send(1, "session.new", `{"capabilities":{}}`)
	c.answer(1, `{}`)
	if _, watch := c.send(2, "browsingContext.getTree", `{}`); !watch {
		t.Fatal("getTree's answer is not watched: the contexts it lists are not booked")
	}
	c.answer(2, `{"contexts":[`+
		`{"context":"first","url":"about:blank","userContext":"default","originalOpener":null,"clientWindow":"w1","parent":null,`+
		`"children":[{"context":"frame","url":"about:blank","userContext":"default","originalOpener":null,"clientWindow":"w1","children":[]}]},`+
		`{"context":"closed","url":"about:blank","userContext":"default","originalOpener":null,"clientWindow":"w2","parent":null,"children":[]}]}`)
	c.send(3, "session.subscribe", `{"events":["browsingContext"]}`)
	c.answer(3, `{"subscription":"s"}`)
	c.event("browsingContext.contextDestroyed", `{"context":"closed","url":"about:blank","children":null,"userContext":"default"}`)
	c.event("browsingContext.contextCreated", `{"context":"made","url":"about:blank","children":null,"userContext":"default"}`)
	// A refused getTree books nothing.
	c.send(4, "browsingContext.getTree", `{"root":"nope"}`)
	msg := `{"type":"error","id":4,"error":"no such frame","message":"nope"}`
	h := head(t, msg)
	c.setup.answered(&h, []byte(msg))

	var got []string
	for _, ev := range c.setup.gone() {
		var e struct {
			Method string
			Params struct {
				Context, URL, UserContext string
				Children                  []any
			}
		}
		if err := json.Unmarshal(ev, &e); err != nil || e.Method != "browsingContext.contextDestroyed" {
			t.Fatalf("gone event %s: %v", ev, err)
		}
		if e.Params.Children != nil {
			t.Errorf("gone event %s: children %v, want null as in contextCreated", ev, e.Params.Children)
		}
		got = append(got, e.Params.Context+"/"+e.Params.URL+"/"+e.Params.UserContext)
	}
	if want := "first/about:blank/default made/about:blank/default"; strings.Join(got, " ") != want {
		t.Fatalf("destroyed %v, want %s", got, want)
	}
}

// The client's session ends with it: the farewell ends a session it left
// open, and nothing once it ended it itself.
func TestBiDiFarewell(t *testing.T) {
	c := newBidiClient(t)
	if bye := c.setup.farewell(9); bye != nil {
		t.Fatalf("no session yet, farewell %s", bye)
	}
	c.send(1, "session.new", `{"capabilities":{}}`)
	c.answer(1, `{}`)
	if bye := string(c.setup.farewell(9)); bye != `{"id":9,"method":"session.end","params":{}}` {
		t.Fatalf("farewell %s", bye)
	}
	c.send(2, "session.end", `{}`)
	c.answer(2, `{}`)
	if bye := c.setup.farewell(9); bye != nil {
		t.Fatalf("after session.end, farewell %s", bye)
	}
}

package relay_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/relaytest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// watcher is a stage that observes every frame both ways and writes down
// what it saw: the direction, then the id or the method, and "made" for a
// frame the relay or a stage made.
type watcher struct {
	mu     sync.Mutex
	seen   []string
	closed atomic.Bool
}

func (w *watcher) Look(*relay.Frame) relay.Look { return relay.Observe }

func (w *watcher) Observe(f *relay.Frame) {
	what := string(f.Head.Method)
	if f.Head.HasID {
		what = fmt.Sprint(f.Head.ID)
	}
	dir := "to_browser"
	if f.Dir == relay.ToClient {
		dir = "to_client"
	}
	if f.Made {
		what += " made"
	}
	if f.Refused != nil {
		what += " refused by " + f.Refused.Rule
	}
	w.mu.Lock()
	w.seen = append(w.seen, dir+" "+what)
	w.mu.Unlock()
}

func (w *watcher) Handle(*relay.Line, *relay.Frame) relay.Verdict { return relay.Pass }
func (w *watcher) Close()                                         { w.closed.Store(true) }

func (w *watcher) saw() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.seen, ", ")
}

// An observer sees each frame both ways, once, in order, right on the fast
// path: the actor hears of none of them (once the first has gone, when the
// fast path is on for sure); a relay's end closes its stages.
func TestObserverSeesEveryFrameOnTheFastPath(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	w := &watcher{}
	traffic := &relay.Traffic{}
	spec := relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Traffic: traffic, Stages: []relay.Stage{w}, Log: zerolog.New(zerolog.NewTestWriter(t))}
	r := relay.New(spec)
	served := make(chan struct{})
	go func() { _ = r.Serve(context.Background()); close(served) }()
	var before int64 // what the first round handed over: the client's reader may start before the fast path is on
	for id := 1; id <= 3; id++ {
		if id == 2 {
			before = traffic.HandedOver.Load()
		}
		client.In <- fmt.Appendf(nil, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"S"}`, id)
		chromium.Next(t)
		chromium.In <- []byte(`{"method":"Page.frameNavigated","params":{},"sessionId":"S"}`)
		chromium.In <- fmt.Appendf(nil, `{"id":%d,"result":{},"sessionId":"S"}`, id)
		client.Next(t)
		client.Next(t)
	}
	want := "to_browser 1, to_client Page.frameNavigated, to_client 1, to_browser 2, to_client Page.frameNavigated, to_client 2, " +
		"to_browser 3, to_client Page.frameNavigated, to_client 3"
	if got := w.saw(); got != want {
		t.Errorf("the observer saw\n%s\nwant\n%s", got, want)
	}
	if n := traffic.HandedOver.Load() - before; n != 0 {
		t.Errorf("%d frames were handed over to the actor once connected, want none", n)
	}
	client.Close(1000, "")
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("the relay did not end")
	}
	if !w.closed.Load() {
		t.Error("the relay ended without closing its stage")
	}
}

// gatekeeper is a stage that claims client requests by method: Test.answer
// is answered by the stage, Test.refuse refused, Test.drop dropped,
// Test.hold held until open is closed (and while it holds, every client
// frame waits behind it); from the browser, Test.hidden is dropped.
type gatekeeper struct {
	open    chan struct{}
	held    []*transport.Message
	closing atomic.Int32 // Close's calls
}

func (g *gatekeeper) Look(f *relay.Frame) relay.Look {
	if f.Dir == relay.ToBrowser && (len(g.held) > 0 || strings.HasPrefix(string(f.Head.Method), "Test.")) {
		return relay.Claim
	}
	if f.Dir == relay.ToClient && f.Head.Is("Test.hidden") {
		return relay.Claim
	}
	return 0
}

func (g *gatekeeper) Observe(*relay.Frame) {}

func (g *gatekeeper) Handle(l *relay.Line, f *relay.Frame) relay.Verdict {
	if len(g.held) > 0 {
		g.held = append(g.held, f.Msg)
		return relay.Hold
	}
	switch string(f.Head.Method) {
	case "Test.answer":
		l.Answer(fmt.Appendf(nil, `{"id":%d,"result":{"by":"stage"}}`, f.Head.ID), nil)
		return relay.Answer
	case "Test.refuse":
		l.Answer(fmt.Appendf(nil, `{"id":%d,"error":{"code":-32000,"message":"no"}}`, f.Head.ID), &relay.Refusal{Method: "Test.refuse", Rule: "the test's"})
		return relay.Answer
	case "Test.hold":
		g.held = append(g.held, f.Msg)
		open := g.open
		l.Go(func(ctx context.Context) func(*relay.Line) {
			select {
			case <-open:
			case <-ctx.Done():
				return nil
			}
			return func(l *relay.Line) {
				held := g.held
				g.held = nil
				for _, m := range held {
					l.Send(relay.ToBrowser, m)
				}
			}
		})
		return relay.Hold
	}
	return relay.Drop
}

func (g *gatekeeper) Close() {
	g.closing.Add(1)
	for _, m := range g.held {
		m.Release()
	}
}

// A stage that claims frames answers, refuses, holds and drops them in the
// actor: an answer of its own reaches the client past the observers before
// it (made, with the refusal); what it held goes on in order once it lets
// it go, ahead of what came after; what it drops reaches nobody.
func TestStageAnswersHoldsAndDrops(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	w, g := &watcher{}, &gatekeeper{open: make(chan struct{})}
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{w, g}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	expect := func(c *actortest.ChanConn, want string) {
		t.Helper()
		if got := string(c.Next(t)); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	client.In <- []byte(`{"id":1,"method":"Test.answer"}`)
	expect(client, `{"id":1,"result":{"by":"stage"}}`)
	client.In <- []byte(`{"id":2,"method":"Test.refuse"}`)
	expect(client, `{"id":2,"error":{"code":-32000,"message":"no"}}`)
	client.In <- []byte(`{"id":3,"method":"Test.drop"}`)
	client.In <- []byte(`{"id":4,"method":"Test.hold"}`)
	client.In <- []byte(`{"id":5,"method":"Runtime.evaluate"}`)
	select {
	case b := <-chromium.Out:
		t.Fatalf("the browser got %s while the stage held", b)
	case <-time.After(200 * time.Millisecond):
	}
	close(g.open)
	expect(chromium, `{"id":4,"method":"Test.hold"}`)
	expect(chromium, `{"id":5,"method":"Runtime.evaluate"}`)
	chromium.In <- []byte(`{"method":"Test.hidden","params":{}}`)
	chromium.In <- []byte(`{"id":5,"result":{}}`)
	expect(client, `{"id":5,"result":{}}`)
	want := "to_browser 1, to_client 1 made, to_browser 2, to_client 2 made refused by the test's, to_browser 3, to_browser 4, to_browser 5, to_client 5"
	if got := w.saw(); got != want {
		t.Errorf("the observer saw\n%s\nwant\n%s", got, want)
	}
}

// nextBrowser is a BrowserSource whose browser after the first is next,
// generation 2.
type nextBrowser struct{ next *actortest.ChanConn }

func (nextBrowser) EnsureRunning(context.Context) (browser.Endpoint, error) {
	return browser.Endpoint{Generation: 2}, nil
}

func (nextBrowser) Replace(context.Context, int) (browser.Endpoint, error) {
	return browser.Endpoint{Generation: 2}, nil
}

func (b nextBrowser) dial(context.Context, browser.Endpoint, int64) (transport.Conn, error) {
	return b.next, nil
}

// A frame a stage sends on while no browser is there waits for the next
// one: the relay recovers for it, and the stages see it again on its way.
func TestHeldFrameSentOnAfterTheBrowserWentReachesTheNext(t *testing.T) {
	client, first, second := actortest.NewChanConn(), actortest.NewChanConn(), actortest.NewChanConn()
	g := &gatekeeper{open: make(chan struct{})}
	src := nextBrowser{next: second}
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: first, Endpoint: browser.Endpoint{Generation: 1},
		Source: src, Dial: src.dial, Resilient: true, Stages: []relay.Stage{g}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	client.In <- []byte(`{"id":1,"method":"Test.hold"}`)
	time.Sleep(100 * time.Millisecond) // held
	first.Close(1000, "")
	time.Sleep(100 * time.Millisecond) // the relay heard: degraded
	close(g.open)
	if got := string(second.Next(t)); got != `{"id":1,"method":"Test.hold"}` {
		t.Fatalf("the next browser got %s", got)
	}
	select {
	case b := <-first.Out:
		t.Fatalf("the lost browser got %s", b)
	default:
	}
}

package relay_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
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

// partaker is a stage that takes part in what the relay does besides
// forwarding: Test.ask is answered with what the stage asked the browser
// itself (Line.Ask); Browser.close is answered when it arrives, whatever
// the connection, and ends the relay (Greeter); Test.hold is held while
// the first browser lives and given back when it is lost (Requeuer); a new
// browser is joined (Rebaser) and the replayed subscriptions marked
// (Replayer).
type partaker struct {
	held     []*transport.Message
	joined   atomic.Int32 // generation of the browser joined, in the dial worker
	rebased  int          // the same, in the actor
	lostSeen atomic.Int32
}

var (
	_ relay.Greeter  = (*partaker)(nil)
	_ relay.Requeuer = (*partaker)(nil)
	_ relay.Rebaser  = (*partaker)(nil)
	_ relay.Replayer = (*partaker)(nil)
	_ relay.Stage    = (*partaker)(nil)
)

func (p *partaker) Look(f *relay.Frame) relay.Look {
	if f.Dir == relay.ToBrowser && (f.Head.Is("Test.ask") || f.Head.Is("Browser.close") || (f.Head.Is("Test.hold") && p.rebased == 0)) {
		return relay.Claim
	}
	return 0
}

func (p *partaker) Observe(*relay.Frame) {}

func (p *partaker) Handle(l *relay.Line, f *relay.Frame) relay.Verdict {
	if f.Head.Is("Test.hold") {
		p.held = append(p.held, f.Msg)
		return relay.Hold
	}
	client := f.Head.ID
	l.Ask(func(id int64) []byte { return fmt.Appendf(nil, `{"id":%d,"method":"Browser.getVersion"}`, id) },
		func(l *relay.Line, answer *relay.Frame) {
			l.Answer(fmt.Appendf(nil, `{"id":%d,"result":{"asked":%d}}`, client, answer.Head.ID), nil)
		})
	return relay.Drop
}

func (p *partaker) Greet(l *relay.Line, f *relay.Frame) relay.Verdict {
	if !f.Head.Is("Browser.close") {
		return relay.Pass
	}
	l.Answer(fmt.Appendf(nil, `{"id":%d,"result":{"generation":%d}}`, f.Head.ID, l.Endpoint().Generation), nil)
	l.Close(1000, "")
	return relay.Answer
}

func (p *partaker) Lost() []*transport.Message {
	p.lostSeen.Add(1)
	held := p.held
	p.held = nil
	return held
}

func (p *partaker) Rebase(_ context.Context, ep browser.Endpoint) (func(), error) {
	p.joined.Store(int32(ep.Generation))
	return func() { p.rebased = ep.Generation }, nil
}

func (p *partaker) Replay(msg []byte) ([]byte, bool) {
	return bytes.Replace(msg, []byte(`"discover":true`), []byte(`"discover":true,"replayed":true`), 1), true
}

func (p *partaker) Close() {
	for _, m := range p.held {
		m.Release()
	}
}

// A stage's own request goes to the browser with an id of the relay's own
// range, and its answer comes to the stage alone.
func TestStageAsksTheBrowserItself(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{&partaker{}}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	client.In <- []byte(`{"id":7,"method":"Test.ask"}`)
	asked := chromium.Next(t)
	h, _ := transport.ScanHead(asked)
	if !h.Is("Browser.getVersion") || !h.HasID || h.ID >= 0 {
		t.Fatalf("the browser got %s, want the stage's Browser.getVersion with an id of the relay's own", asked)
	}
	chromium.In <- fmt.Appendf(nil, `{"id":%d,"result":{"product":"x"}}`, h.ID)
	if got, want := string(client.Next(t)), fmt.Sprintf(`{"id":7,"result":{"asked":%d}}`, h.ID); got != want {
		t.Fatalf("the client got %s, want %s", got, want)
	}
	select {
	case b := <-client.Out:
		t.Fatalf("the client got %s as well", b)
	case <-time.After(100 * time.Millisecond):
	}
}

// A stage greets a Browser.close whatever the connection's state: with
// the browser gone, it answers it and ends the relay, and no recovery
// starts for it (the relay has no browser source to start one).
func TestStageGreetsBrowserCloseWhileTheBrowserIsGone(t *testing.T) {
	client, chromium := actortest.NewChanConn(), actortest.NewChanConn()
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: chromium, Endpoint: browser.Endpoint{Generation: 3},
		Resilient: true, Stages: []relay.Stage{&partaker{}}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	chromium.Close(1000, "")
	time.Sleep(100 * time.Millisecond) // the relay heard: degraded
	client.In <- []byte(`{"id":1,"method":"Browser.close"}`)
	if got, want := string(client.Next(t)), `{"id":1,"result":{"generation":3}}`; got != want {
		t.Fatalf("the client got %s, want %s", got, want)
	}
	for {
		var m transport.Message
		if err := client.Read(&m); err != nil {
			break // closed by the stage
		}
	}
}

// What a stage holds when the browser is lost goes to the next one, after
// the stage joined it (in the dial worker, then in the actor) and after
// the replayed subscriptions it had its say in.
func TestStageTakesPartInTheRecovery(t *testing.T) {
	client, first, second := actortest.NewChanConn(), actortest.NewChanConn(), actortest.NewChanConn()
	p := &partaker{}
	src := nextBrowser{next: second}
	relaytest.Serve(t, client, relay.Spec{ID: 1, Client: client, Browser: first, Endpoint: browser.Endpoint{Generation: 1},
		Source: src, Dial: src.dial, Resilient: true, BootstrapTimeout: 5 * time.Second, Stages: []relay.Stage{p},
		Log: zerolog.New(zerolog.NewTestWriter(t))})
	client.In <- []byte(`{"id":1,"method":"Target.setDiscoverTargets","params":{"discover":true}}`)
	if got := string(first.Next(t)); !strings.Contains(got, `"discover":true}`) {
		t.Fatalf("the first browser got %s", got)
	}
	first.In <- []byte(`{"id":1,"result":{}}`)
	client.Next(t)
	client.In <- []byte(`{"id":2,"method":"Test.hold"}`)
	time.Sleep(100 * time.Millisecond) // held
	first.Close(1000, "")
	replayed := second.Next(t)
	h, _ := transport.ScanHead(replayed)
	if !h.Is("Target.setDiscoverTargets") || !bytes.Contains(replayed, []byte(`"replayed":true`)) {
		t.Fatalf("the next browser got %s first, want the replayed subscription as the stage had it", replayed)
	}
	if g := p.joined.Load(); g != 2 {
		t.Errorf("the stage joined generation %d, want 2", g)
	}
	second.In <- fmt.Appendf(nil, `{"id":%d,"result":{}}`, h.ID)
	if got := string(second.Next(t)); got != `{"id":2,"method":"Test.hold"}` {
		t.Fatalf("the next browser got %s, want what the stage held", got)
	}
	if n := p.lostSeen.Load(); n != 1 {
		t.Errorf("the stage heard of %d lost browsers, want 1", n)
	}
}

package pacing

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/relaytest"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// servePacer serves a PacingActor that follows one instance, "i", until
// the test ends.
func servePacer(t *testing.T, spec Spec) *Actor {
	t.Helper()
	spec.Log = zerolog.New(zerolog.NewTestWriter(t))
	a := New(spec)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { _ = a.Serve(ctx); close(served) }()
	t.Cleanup(func() { cancel(); <-served })
	if err := a.InstanceMade(ctx, plug.Instance{ID: "i", Default: true, Endpoint: "http://127.0.0.1:9"}); err != nil {
		t.Fatal(err)
	}
	return a
}

// worldClient is a client of a world whose relay has the load stage, and
// the browser end of that relay.
type worldClient struct{ client, chromium *actortest.ChanConn }

func newWorldClient(t *testing.T, a *Actor, world string) worldClient {
	c := worldClient{actortest.NewChanConn(), actortest.NewChanConn()}
	relaytest.Serve(t, c.client, relay.Spec{ID: 1, Client: c.client, Browser: c.chromium, Endpoint: browser.Endpoint{Generation: 1},
		Resilient: true, Stages: []relay.Stage{a.stageOf("i")(context.Background(), world, 1)}, Log: zerolog.New(zerolog.NewTestWriter(t))})
	return c
}

func (c worldClient) send(id int64, method, session string) {
	c.client.In <- fmt.Appendf(nil, `{"id":%d,"method":%q,"params":{"url":"http://127.0.0.1:9/"},"sessionId":%q}`, id, method, session)
}

// expect is the next frame the browser got: request id of method.
func (c worldClient) expect(t *testing.T, id int64, method string) {
	t.Helper()
	if h, _ := transport.ScanHead(c.chromium.Next(t)); !h.HasID || h.ID != id || !h.Is(method) {
		t.Fatalf("Chromium got %+v, want %d %s", h, id, method)
	}
}

// quiet: the browser gets nothing for a while.
func (c worldClient) quiet(t *testing.T) {
	t.Helper()
	select {
	case b := <-c.chromium.Out:
		t.Fatalf("Chromium got %s while it should wait its turn", b)
	case <-time.After(200 * time.Millisecond):
	}
}

// navigated answers a navigation with a loader (a document loads), then
// its page's load event; the client gets both.
func (c worldClient) navigated(t *testing.T, id int64, session string, loaded bool) {
	t.Helper()
	c.chromium.In <- fmt.Appendf(nil, `{"id":%d,"result":{"frameId":"F","loaderId":"L%d"},"sessionId":%q}`, id, id, session)
	c.client.Next(t)
	if loaded {
		c.chromium.In <- fmt.Appendf(nil, `{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":%q}`, session)
		c.client.Next(t)
	}
}

func figuresNow(t *testing.T, a *Actor) (running, queued int) {
	t.Helper()
	p, err := a.Pressure(context.Background(), "i")
	if err != nil {
		t.Fatal(err)
	}
	return p.LoadsRunning, p.LoadsQueued
}

// One load at a time: a load waits until the running one's page loaded;
// the waiting ones are taken world by world (a world that asked for two
// gets its second after the other world's first), and what a client sent
// after a waiting load on the same page waits behind it, while its other
// pages' requests go on.
func TestLoadsWaitTheirTurnWorldByWorld(t *testing.T) {
	a := servePacer(t, Spec{MaxLoads: 1, LoadBound: time.Minute})
	wa, wb := newWorldClient(t, a, "a"), newWorldClient(t, a, "b")

	wa.send(1, "Page.navigate", "S1")
	wa.expect(t, 1, "Page.navigate") // a slot was free
	wa.send(2, "Page.navigate", "S2")
	wa.send(3, "Runtime.evaluate", "S2") // behind its page's load
	wa.send(4, "Page.reload", "S3")
	wa.send(5, "Runtime.evaluate", "S1") // its page's load runs: light work never waits
	wa.expect(t, 5, "Runtime.evaluate")
	wb.send(1, "Page.navigate", "T1")
	wb.quiet(t)
	if running, queued := figuresNow(t, a); running != 1 || queued != 3 {
		t.Fatalf("pressure: %d running, %d queued; want 1, 3", running, queued)
	}

	wa.navigated(t, 1, "S1", true) // S1 loaded: the next in turn is a's first
	wa.expect(t, 2, "Page.navigate")
	wa.expect(t, 3, "Runtime.evaluate")
	wa.navigated(t, 2, "S2", true) // then b's, before a's second
	wb.expect(t, 1, "Page.navigate")
	wa.quiet(t)
	wb.navigated(t, 1, "T1", true)
	wa.expect(t, 4, "Page.reload")
	wa.navigated(t, 4, "S3", true)
	if running, queued := figuresNow(t, a); running != 0 || queued != 0 {
		t.Fatalf("pressure after: %d running, %d queued; want 0, 0", running, queued)
	}
}

// A load with nothing to load (a move within the document, an error) gives
// its slot back at its answer; a page that never says it loaded gives it
// back at the bound; a client that leaves gives back its slot and withdraws
// what waited.
func TestASlotComesBackWhateverBecomesOfItsLoad(t *testing.T) {
	a := servePacer(t, Spec{MaxLoads: 1, LoadBound: 300 * time.Millisecond})
	wa, wb := newWorldClient(t, a, "a"), newWorldClient(t, a, "b")

	wa.send(1, "Page.navigate", "S1")
	wa.expect(t, 1, "Page.navigate")
	wb.send(1, "Page.navigate", "T1")
	wb.quiet(t)                                                                    // well within the bound
	wa.chromium.In <- []byte(`{"id":1,"result":{"frameId":"F"},"sessionId":"S1"}`) // same document: no loader
	wa.client.Next(t)
	wb.expect(t, 1, "Page.navigate")

	wb.chromium.In <- []byte(`{"id":1,"error":{"code":-32000,"message":"Cannot navigate to invalid URL"},"sessionId":"T1"}`)
	wb.client.Next(t)
	wa.send(2, "Page.navigate", "S1")
	wa.expect(t, 2, "Page.navigate")

	wa.navigated(t, 2, "S1", false) // it never loads: the bound lets b go
	wb.send(2, "Page.navigate", "T1")
	start := time.Now()
	wb.expect(t, 2, "Page.navigate")
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Errorf("b's load went after %v: it did not wait for a's slot's bound", waited)
	}

	wb.send(3, "Page.navigate", "T1") // waits behind b's own, whose page has not loaded
	wb.client.Close(1000, "")         // b leaves: its slot and its waiting load are given back
	waitFor(t, func() bool { r, q := figuresNow(t, a); return r == 0 && q == 0 })
	wa.send(3, "Page.navigate", "S1")
	wa.expect(t, 3, "Page.navigate")
}

// Without pacing every load goes at once, counted all the same.
func TestNoPacingCountsTheLoads(t *testing.T) {
	a := servePacer(t, Spec{MaxLoads: -1, LoadBound: time.Minute})
	wa := newWorldClient(t, a, "a")
	for i := int64(1); i <= 5; i++ {
		wa.send(i, "Page.navigate", fmt.Sprintf("S%d", i))
		wa.expect(t, i, "Page.navigate")
	}
	if running, queued := figuresNow(t, a); running != 5 || queued != 0 {
		t.Fatalf("pressure: %d running, %d queued; want 5, 0", running, queued)
	}
	p, _ := a.Pressure(context.Background(), "")
	if p.MaxLoads != 0 || p.WaitedMS.Loads != 5 {
		t.Fatalf("pressure %+v: want max_loads 0 (no pacing), 5 loads in the wait window", p)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("not reached within 5 s")
		}
	}
}

// The pressure is asked by id, by the port of the instance's endpoint, or
// of the default instance; an unknown one is refused.
func TestPressureOfWhichInstance(t *testing.T) {
	a := servePacer(t, Spec{MaxLoads: 3})
	ctx := context.Background()
	if err := a.InstanceMade(ctx, plug.Instance{ID: "other", Endpoint: "http://127.0.0.1:4123"}); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{"": "i", "i": "i", "9": "i", "other": "other", "4123": "other"} {
		p, err := a.Pressure(ctx, ref)
		if err != nil || p.Instance != want || p.MaxLoads != 3 || !p.IsAvailable {
			t.Errorf("pressure of %q: %+v, %v; want instance %s", ref, p, err, want)
		}
	}
	for _, ref := range []string{"nope", "4124"} {
		if _, err := a.Pressure(ctx, ref); !errors.Is(err, ErrUnknownInstance) {
			t.Errorf("pressure of %q: %v, want ErrUnknownInstance", ref, err)
		}
	}
	a.InstanceClosed(ctx, "other")
	if _, err := a.Pressure(ctx, "other"); !errors.Is(err, ErrUnknownInstance) {
		t.Errorf("pressure of a closed instance: %v, want ErrUnknownInstance", err)
	}
}

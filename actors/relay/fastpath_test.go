package relay_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// While connected, requests and answers cross without the actor; the
// actor takes subscriptions (which it keeps for a recovery) and, after a
// crash, everything until the connection is connected again.
func TestConnectedFramesTakeTheFastPath(t *testing.T) {
	traffic := &relay.Traffic{}
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=300"), proxy.Spec{Traffic: traffic})
	cl := inst.DialCDP(t)
	cl.Call(1, "Target.setDiscoverTargets", `{"discover":true}`, "") // a subscription: the actor's
	base := traffic.HandedOver.Load()
	if base == 0 {
		t.Fatal("the subscription did not go through the actor")
	}
	for id := int64(2); id < 202; id++ {
		if m := cl.Call(id, "Browser.getVersion", "", ""); m.Error != nil {
			t.Fatalf("%d: %+v", id, m)
		}
	}
	if n := traffic.HandedOver.Load() - base; n != 0 {
		t.Fatalf("%d of 400 frames went through the actor while connected, want none", n)
	}
	// A reader counts a frame once its write returned, which can be after
	// the answer reached the client: the count catches up.
	deadline := time.Now().Add(5 * time.Second)
	for traffic.ToBrowserMessages.Load() < 201 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := traffic.ToBrowserMessages.Load(); got < 201 {
		t.Fatalf("%d messages to the browser counted, want at least 201", got)
	}

	// The browser dies on message 300; the requests it never answered go
	// through the actor, which queues them, recovers, and sends them on.
	for id := int64(202); id < 302; id++ {
		cl.Send(id, "Browser.getVersion", "", "")
	}
	answered := map[int64]int{}
	for len(answered) < 100 {
		m := cl.Next()
		if m.ID != nil {
			if m.Error != nil {
				t.Fatalf("%+v", m)
			}
			answered[*m.ID]++
		}
	}
	for id, n := range answered {
		if n != 1 || id < 202 || id >= 302 {
			t.Fatalf("answer %d came %d times", id, n)
		}
	}
	if g := generation(t, inst); g != 2 {
		t.Fatalf("generation %d, want 2", g)
	}
	after := traffic.HandedOver.Load()
	if after == base {
		t.Fatal("nothing went through the actor across the crash")
	}
	// Connected again: the fast path is back.
	served.WaitState(t, inst.Browser, fsm.BrowserRunning)
	for id := int64(302); id < 402; id++ {
		if m := cl.Call(id, "Browser.getVersion", "", ""); m.Error != nil {
			t.Fatalf("%d: %+v", id, m)
		}
	}
	if n := traffic.HandedOver.Load() - after; n != 0 {
		t.Fatalf("%d frames went through the actor after the recovery, want none", n)
	}
}

// Requests written without waiting for their answers, with the browser
// dying among them: each is answered exactly once, by one browser or the
// next (the fast path records them before it writes, the actor re-sends
// the unanswered ones).
func TestPipelinedRequestsAcrossACrashAreAnsweredOnce(t *testing.T) {
	for round := 0; round < 3; round++ {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-crash-after=40"), proxy.Spec{})
			cl := inst.DialCDP(t)
			const n = 70
			for id := int64(1); id <= n; id++ {
				cl.Send(id, "Browser.getVersion", "", "")
			}
			answered := map[int64]int{}
			for got := 0; got < n; {
				m := cl.Next()
				if m.ID == nil {
					continue
				}
				if m.Error != nil {
					t.Fatalf("%+v", m)
				}
				answered[*m.ID]++
				got++
			}
			for id := int64(1); id <= n; id++ {
				if answered[id] != 1 {
					t.Fatalf("request %d answered %d times", id, answered[id])
				}
			}
		})
	}
}

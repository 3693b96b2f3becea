package cdpsession_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
)

type answered struct {
	gen int
	id  int64
}

// A session opens, carries a command and what Read keeps of its answer to
// the actor's mailbox, and tells the actor when the browser ends it.
func TestSessionCarriesCommandsAndTellsItsEnd(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t)})
	ep, err := b.EnsureRunning(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan any, 16)
	s := cdpsession.Start(ep, out, cdpsession.Spec{MaxMessage: 1 << 20, Queue: 4, Read: func(gen int, raw []byte) (any, bool) {
		var m struct{ ID int64 }
		if json.Unmarshal(raw, &m) != nil || m.ID == 0 {
			return nil, false // events: not kept
		}
		return answered{gen: gen, id: m.ID}, true
	}})
	defer s.Stop()
	next := func() any {
		select {
		case m := <-out:
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("the session told nothing in 5 s")
			return nil
		}
	}
	if m, ok := next().(cdpsession.Opened); !ok || m.Gen != ep.Generation {
		t.Fatalf("first news %+v, want Opened of generation %d", m, ep.Generation)
	}
	id, ok := s.Send("Browser.getVersion", nil)
	if !ok {
		t.Fatal("Send refused with an empty queue")
	}
	if m := next(); m != (answered{gen: ep.Generation, id: id}) {
		t.Fatalf("news %+v, want the answer to %d", m, id)
	}
	actortest.KillPid(t, ep.Pid)
	if m, ok := next().(cdpsession.Ended); !ok || m.Gen != ep.Generation {
		t.Fatalf("news %+v, want Ended of generation %d", m, ep.Generation)
	}
}

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

// news is what the session tells the test's actor: its own closed set.
type news interface{ isNews() }

type (
	answered struct {
		gen int
		id  int64
	}
	opened cdpsession.Opened
	ended  cdpsession.Ended
)

func (answered) isNews() {}
func (opened) isNews()   {}
func (ended) isNews()    {}

// A session opens, carries a command and what Read keeps of its answer to
// the actor's mailbox, and tells the actor when the browser ends it.
func TestSessionCarriesCommandsAndTellsItsEnd(t *testing.T) {
	b := served.StartBrowser(t, browser.Spec{Launch: served.FakeLaunch(t)})
	ep, err := b.EnsureRunning(served.Context(t))
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan news, 16)
	read := func(gen int, raw []byte) (news, bool) {
		var m struct{ ID int64 }
		if json.Unmarshal(raw, &m) != nil || m.ID == 0 {
			return nil, false // events: not kept
		}
		return answered{gen: gen, id: m.ID}, true
	}
	s := cdpsession.Start(ep, out, cdpsession.Spec[news]{
		MaxMessage: 1 << 20, Queue: 4, Read: read,
		Opened: func(m cdpsession.Opened) news { return opened(m) },
		Ended:  func(m cdpsession.Ended) news { return ended(m) },
	})
	defer s.Stop()
	next := func() news {
		select {
		case m := <-out:
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("the session told nothing in 5 s")
			return nil
		}
	}
	if m, ok := next().(opened); !ok || m.Gen != ep.Generation {
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
	if m, ok := next().(ended); !ok || m.Gen != ep.Generation {
		t.Fatalf("news %+v, want Ended of generation %d", m, ep.Generation)
	}
}

package worlds_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/transport"
)

// sentBehaviours records every Browser.setDownloadBehavior the relays
// write to a browser, by the context it names.
type sentBehaviours struct {
	mu       sync.Mutex
	contexts []string
}

func (s *sentBehaviours) watch(c transport.Conn) transport.Conn { return &recordingConn{Conn: c, s: s} }

func (s *sentBehaviours) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.contexts...)
}

type recordingConn struct {
	transport.Conn
	s *sentBehaviours
}

func (c *recordingConn) Write(msg []byte, binary bool) error {
	if strings.Contains(string(msg), "Browser.setDownloadBehavior") {
		var m struct {
			Params struct{ BrowserContextID string }
		}
		_ = json.Unmarshal(msg, &m)
		c.s.mu.Lock()
		c.s.contexts = append(c.s.contexts, m.Params.BrowserContextID)
		c.s.mu.Unlock()
	}
	return c.Conn.Write(msg, binary)
}

// A world's download behaviour is set for the world's context, and set
// again for its new context after a crash; another world's is out of reach.
func TestWorldDownloadBehaviourIsTheWorlds(t *testing.T) {
	sent := &sentBehaviours{}
	f := newFixtureSpec(t, proxy.Spec{WatchBrowser: sent.watch})
	a, b := f.world("a"), f.world("b")
	f.call(a, "Browser.setDownloadBehavior", `{"behavior":"deny"}`)
	ca, cb := f.contextOf(f.newPage(a)), f.contextOf(f.newPage(b))
	if got := sent.list(); len(got) != 1 || got[0] != ca {
		t.Fatalf("setDownloadBehavior sent for contexts %q, want [%s]", got, ca)
	}
	m := f.answer(a, "Browser.setDownloadBehavior", fmt.Sprintf(`{"behavior":"deny","browserContextId":%q}`, cb))
	if code, msg := errorOf(t, m); code != -32602 || msg != "Failed to find browser context for id "+cb {
		t.Errorf("world a setting world b's downloads: %d %q", code, msg)
	}
	f.kill()
	// Sent while no browser is there: held, then refused, and never
	// replayed into the next browser.
	refused := f.id()
	a.Send(refused, "Browser.setDownloadBehavior", fmt.Sprintf(`{"behavior":"deny","browserContextId":%q}`, cb), "")
	after := f.contextOf(f.newPageAfterCrash(a))
	deadline := time.Now().Add(5 * time.Second)
	for got := sent.list(); len(got) < 2 || got[len(got)-1] != after; got = sent.list() {
		if time.Now().After(deadline) {
			t.Fatalf("after the crash setDownloadBehavior was sent for %q, want it again for the new context %s", got, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := sent.list(); slices.Contains(got, cb) {
		t.Errorf("world b's context %s got world a's download behaviour: %q", cb, got)
	}
	for _, m := range a.Seen {
		if m.ID != nil && *m.ID == refused {
			if code, _ := m.ErrorCode(); code != -32602 {
				t.Errorf("the held setDownloadBehavior of world b's context answered %s", m.Raw)
			}
		}
	}
}

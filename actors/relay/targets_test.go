package relay

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cdpvisor/cdpvisor/transport"
)

// A session's detach comes before the detach of the session it was
// attached through: a client drops a session on its detach and ignores what
// comes through it after (Puppeteer then kept the page of a tab detached
// first, and failed on it: "Tab target session is not defined").
func TestGoneEventsDetachChildrenFirst(t *testing.T) {
	b := newTargetBook()
	attach := func(session, target, parent string) {
		msg := fmt.Sprintf(`{"method":"Target.attachedToTarget","params":{"sessionId":%q,"targetInfo":{"targetId":%q}}`, session, target)
		if parent != "" {
			msg += fmt.Sprintf(`,"sessionId":%q`, parent)
		}
		msg += "}"
		h, err := transport.ScanHead([]byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		b.note(&h, []byte(msg))
	}
	for i := range 20 { // many tabs: map order would put some tab first
		tab, page, frame := fmt.Sprint("tab", i), fmt.Sprint("page", i), fmt.Sprint("frame", i)
		attach(tab, "T"+tab, "")
		attach(page, "T"+page, tab)
		attach(frame, "T"+frame, page)
	}
	gone := map[string]bool{}
	for _, ev := range b.goneEvents() {
		var m struct {
			SessionID string
			Params    struct{ SessionID string }
		}
		if err := json.Unmarshal(ev, &m); err != nil {
			t.Fatalf("%s: %v", ev, err)
		}
		if m.SessionID != "" && gone[m.SessionID] {
			t.Fatalf("%s comes through %s, already detached", m.Params.SessionID, m.SessionID)
		}
		gone[m.Params.SessionID] = true
	}
	if len(gone) != 60 {
		t.Fatalf("%d sessions detached, want 60", len(gone))
	}
}

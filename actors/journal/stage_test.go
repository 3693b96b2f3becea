package journal

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// frame is a relay's frame of msg going dir.
func frame(t *testing.T, dir relay.Direction, msg string) *relay.Frame {
	t.Helper()
	h, complete := transport.ScanHeadPrefix([]byte(msg)) // a huge frame's first bytes, or a whole one
	if !complete && h.Method == nil && !h.HasID {
		t.Fatalf("no head in %s", msg)
	}
	return &relay.Frame{Dir: dir, Head: h, Msg: &transport.Message{B: []byte(msg)}}
}

// pass puts f past the tap as its relay would: observed when it looks.
func pass(tap *Tap, f *relay.Frame) {
	if l := tap.Look(f); l&relay.Claim != 0 {
		panic("a tap claimed a frame")
	} else if l&relay.Observe != 0 {
		tap.Observe(f)
	}
}

// As a stage of its client's relay, a tap follows the world's target news
// the client is told (the sessions its commands name, a page's URL once
// per change), keeps a refusal of the wall as a denial before its command,
// and leaves alone what the relay itself tells of a browser that was lost
// and the news that concern no page.
func TestTapAsAStage(t *testing.T) {
	a := serve(t, Spec{Dir: filepath.Join(t.TempDir(), "journal")})
	tap := a.Tap("shop", Client{ID: 3})
	toClient := func(msg string) { pass(tap, frame(t, relay.ToClient, msg)) }
	toBrowser := func(msg string) { pass(tap, frame(t, relay.ToBrowser, msg)) }

	toClient(`{"method":"Target.attachedToTarget","params":{"sessionId":"S1","targetInfo":{"targetId":"T1","type":"page","url":"about:blank"},"waitingForDebugger":false}}`)
	toClient(`{"method":"Target.attachedToTarget","params":{"sessionId":"SB","targetInfo":{"targetId":"B","type":"browser"}}}`)
	toClient(`{"method":"Target.targetInfoChanged","params":{"targetInfo":{"targetId":"T1","type":"page","url":"http://a.test/"}}}`)
	toClient(`{"method":"Target.targetInfoChanged","params":{"targetInfo":{"targetId":"T1","type":"page","url":"http://a.test/"}}}`) // no change
	toClient(`{"method":"Target.targetInfoChanged","params":{"targetInfo":{"targetId":"W1","type":"service_worker","url":"http://a.test/sw.js"}}}`)
	toBrowser(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"SECRET"},"sessionId":"S1"}`)
	toClient(`{"id":1,"result":{},"sessionId":"S1"}`)
	toBrowser(`{"id":2,"method":"Page.navigate","params":{"url":"file:///etc/passwd"},"sessionId":"S1"}`)
	refusal := frame(t, relay.ToClient, `{"id":2,"error":{"code":-32000,"message":"refused"},"sessionId":"S1"}`)
	refusal.Made, refusal.Refused = true, &relay.Refusal{Method: "Page.navigate", What: "file:///etc/passwd", Rule: "a guarded world touches nothing of the machine"}
	pass(tap, refusal)
	// What the relay tells of a lost browser: the session stays the page's.
	gone := frame(t, relay.ToClient, `{"method":"Target.detachedFromTarget","params":{"sessionId":"S1","targetId":"T1"}}`)
	gone.Made = true
	pass(tap, gone)
	toBrowser(`{"id":3,"method":"DOM.getDocument","sessionId":"S1"}`)
	huge := frame(t, relay.ToClient, `{"id":3,"error":{"code":-32000,"message":"not read whole"},"sessionId":"S1","data":"AAAA`)
	huge.Partial = true
	pass(tap, huge)
	toClient(`{"method":"Target.detachedFromTarget","params":{"sessionId":"S1","targetId":"T1"}}`)
	toBrowser(`{"id":4,"method":"DOM.getDocument","sessionId":"S1"}`)
	toClient(`{"id":4,"result":{},"sessionId":"S1"}`)

	want := []string{
		"navigation  T1 http://a.test/   ",
		"command Runtime.evaluate T1  ok  ",
		"denied Page.navigate  file:///etc/passwd   a guarded world touches nothing of the machine",
		"command Page.navigate T1 file:///etc/passwd error refused ",
		"command DOM.getDocument T1  error  ",
		"command DOM.getDocument session S1  ok  ",
	}
	got := readN(t, a, "shop", Since{}, len(want))
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, e := range got {
		line := fmt.Sprintf("%s %s %s %s %s %s %s", e.Kind, e.Method, e.Target, e.URL, e.Answer, e.Error, e.Note)
		if line != want[i] || e.Client == nil || e.Client.ID != 3 {
			t.Errorf("entry %d: %q (client %+v), want %q", i, line, e.Client, want[i])
		}
	}
}

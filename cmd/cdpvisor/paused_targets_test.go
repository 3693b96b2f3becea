package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A page held for a debugger by a client's own auto-attach
// (waitForDebuggerOnStart) holds every client of that page; when that
// client leaves, the page goes on: its session on the browser's one pipe
// is detached, as its connection's close would on a debugging port, and
// Chromium resumes what that session alone held.
func TestAPageHeldByAClientThatLeftGoesOn(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	holder := actortest.DialCDP(t, wsOf(s.endpoint))
	holder.Call(1, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}`, "")
	other := actortest.DialCDP(t, wsOf(s.endpoint))
	var created struct{ TargetID string }
	_ = json.Unmarshal(other.Call(1, "Target.createTarget", `{"url":"about:blank"}`, "").Result, &created)
	var attached struct{ SessionID string }
	_ = json.Unmarshal(other.Call(2, "Target.attachToTarget", `{"targetId":"`+created.TargetID+`","flatten":true}`, "").Result, &attached)
	other.Send(3, "Page.navigate", `{"url":"data:text/html,<p>on</p>"}`, attached.SessionID)
	// Held: the holder's auto-attach waits for it to resume the page.
	if m, ok := other.NextWithin(time.Second); ok {
		t.Fatalf("the page was not held by the other client's waitForDebuggerOnStart: %s", m.Raw)
	}
	if err := holder.Conn.Close(); err != nil {
		t.Fatal(err)
	}
	m, _ := other.Answer(3)
	if m.Error != nil {
		t.Fatalf("Page.navigate after the holder left: %s", m.Error)
	}
}

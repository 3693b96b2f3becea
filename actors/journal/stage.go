package journal

import (
	"context"
	"encoding/json"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A Tap is a stage of its client's relay (relay.Stage) that observes and
// never claims: it sees at the client's edge each request as the client
// sent it, each answer as the client gets it (a refusal of the world's
// wall with it), and the target news the client is told, which name the
// pages and sessions its commands are about. On the fast path as in the
// actor: the relay hands nothing over for it.

// Look observes requests and answers, and the browser's target news.
func (t *Tap) Look(f *relay.Frame) relay.Look {
	if f.Head.HasID || (f.Dir == relay.ToClient && !f.Made && targetNews(&f.Head)) {
		return relay.Observe
	}
	return 0
}

// Observe notes a request, an answer or a target's news.
func (t *Tap) Observe(f *relay.Frame) {
	h := &f.Head
	switch {
	case f.Dir == relay.ToBrowser:
		t.request(h.ID, h.Method, h.SessionID, f.Msg.B)
	case h.HasID:
		if r := f.Refused; r != nil {
			t.denied(r.Method, r.What, r.Rule)
		}
		msg := f.Msg.B
		if f.Partial {
			msg = nil // a huge answer's first bytes: no error message to read whole
		}
		t.answer(h.ID, h.HasError, msg)
	default:
		t.news(h, f.Msg.B)
	}
}

// Handle is never called: a tap claims nothing.
func (t *Tap) Handle(*relay.Line, *relay.Frame) relay.Verdict { return relay.Pass }

// targetNews says an event tells of a target or a session the journal
// follows.
func targetNews(h *transport.Head) bool {
	switch string(h.Method) {
	case "Target.targetCreated", "Target.targetInfoChanged", "Target.targetDestroyed",
		"Target.attachedToTarget", "Target.detachedFromTarget":
		return true
	}
	return false
}

// news follows the targets and sessions the client is told of: a page's
// URL (a navigation entry when it changed), a target gone, a session
// attached or detached. The browser's own session (the client's
// Target.attachToBrowserTarget) names no page.
func (t *Tap) news(h *transport.Head, msg []byte) {
	var ev struct {
		Params struct {
			SessionID  string `json:"sessionId"`
			TargetID   string `json:"targetId"`
			TargetInfo struct {
				TargetID string `json:"targetId"`
				Type     string `json:"type"`
				URL      string `json:"url"`
			} `json:"targetInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &ev) != nil {
		return
	}
	p := &ev.Params
	switch string(h.Method) {
	case "Target.targetCreated", "Target.targetInfoChanged":
		if p.TargetInfo.Type == "page" {
			t.navigated(p.TargetInfo.TargetID, p.TargetInfo.URL)
		}
	case "Target.targetDestroyed":
		t.gone(p.TargetID)
	case "Target.attachedToTarget":
		if p.TargetInfo.Type != "browser" {
			t.attached(p.SessionID, p.TargetInfo.TargetID)
		}
	case "Target.detachedFromTarget":
		t.detached(p.SessionID)
	}
}

// Taps makes the journal's stage of each world client's relay: a tap of the
// world's journal for the client (relay id); command names the command a
// wrap --isolate runs in a world ("" when none; nil: none ever).
func (a *Actor) Taps(command func(world string) string) func(ctx context.Context, world string, id int64) relay.Stage {
	return func(_ context.Context, world string, id int64) relay.Stage {
		client := Client{ID: id}
		if command != nil {
			client.Command = command(world)
		}
		return a.Tap(world, client)
	}
}

package relay

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cdpvisor/cdpvisor/transport"
)

// targetBook remembers the targets and sessions a client knows of, from
// the browser's Target events, so that when the browser goes the client
// can be told they are gone (instead of finding out call by call). Only
// those few, small events are decoded; nothing else is.
type targetBook struct {
	sessions map[string]sessionInfo // attached sessions by id
	targets  map[string]bool        // targets the client discovered
}

type sessionInfo struct {
	targetID string
	parent   string // the session it was attached through ("" at browser level)
}

func newTargetBook() *targetBook {
	return &targetBook{sessions: map[string]sessionInfo{}, targets: map[string]bool{}}
}

// isBookEvent reports whether a browser event changes what the book holds.
func isBookEvent(h *transport.Head) bool {
	return !h.HasID && (h.Is("Target.attachedToTarget") || h.Is("Target.detachedFromTarget") ||
		h.Is("Target.targetCreated") || h.Is("Target.targetDestroyed"))
}

// note reads a browser event that changes what targets exist.
func (b *targetBook) note(h *transport.Head, msg []byte) {
	var p struct {
		SessionID  string `json:"sessionId"`
		TargetID   string `json:"targetId"`
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	if !isBookEvent(h) {
		return
	}
	var ev struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &ev) != nil || json.Unmarshal(ev.Params, &p) != nil {
		return
	}
	switch {
	case h.Is("Target.attachedToTarget"):
		b.sessions[p.SessionID] = sessionInfo{targetID: p.TargetInfo.TargetID, parent: string(h.SessionID)}
	case h.Is("Target.detachedFromTarget"):
		delete(b.sessions, p.SessionID)
	case h.Is("Target.targetCreated"):
		b.targets[p.TargetInfo.TargetID] = true
	case h.Is("Target.targetDestroyed"):
		delete(b.targets, p.TargetID)
	}
}

// goneEvents are the events a real browser would have sent had it closed
// its targets one by one: each session detached, children before the
// session they were attached through, each discovered target destroyed.
// The order matters: a client drops a session on its detach, and then
// ignores events that come through it, so a page's detach sent after its
// tab's would be lost (Puppeteer keeps such a page, and fails on it with
// "Tab target session is not defined"). The book is empty after.
func (b *targetBook) goneEvents() [][]byte {
	var out [][]byte
	ids := make([]string, 0, len(b.sessions))
	depth := make(map[string]int, len(b.sessions))
	for id := range b.sessions {
		ids = append(ids, id)
		d := 0
		for p := b.sessions[id].parent; p != "" && d <= len(b.sessions); d++ {
			p = b.sessions[p].parent // a parent not in the book ends the chain
		}
		depth[id] = d
	}
	slices.SortFunc(ids, func(x, y string) int { return cmp.Or(cmp.Compare(depth[y], depth[x]), cmp.Compare(x, y)) })
	for _, id := range ids {
		s := b.sessions[id]
		ev := fmt.Appendf(nil, `{"method":"Target.detachedFromTarget","params":{"sessionId":%q,"targetId":%q}`, id, s.targetID)
		out = append(out, transport.AppendSession(ev, []byte(s.parent)))
	}
	for id := range b.targets {
		out = append(out, fmt.Appendf(nil, `{"method":"Target.targetDestroyed","params":{"targetId":%q}}`, id))
	}
	clear(b.sessions)
	clear(b.targets)
	return out
}

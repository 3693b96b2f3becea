package recorder

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A Tap is the recorder's stage in one world client's relay: it observes
// (never claims) the client's commands a user would call actions
// (navigations, input, evaluations, pages opened and closed) and their
// answers, and hands each to the recorder as an action once answered. It
// costs a relay of a world not recorded one load of the recorded set a
// frame. Safe for the relay's two readers at once: a lock, as the
// journal's tap, not a hand-off per frame.
type Tap struct {
	a      *Actor
	world  string
	client string

	mu       sync.Mutex
	pending  map[int64]pwtrace.Action // awaiting their answers
	sessions map[string]string        // the client's page sessions' targets
}

var _ relay.Stage = (*Tap)(nil)

// maxPendingActions and maxTapSessions bound what a tap keeps (a client
// may send anything).
const (
	maxPendingActions = 4096
	maxTapSessions    = 4096
)

// actionSeq numbers the actions of every tap: an action's id is unique in
// a trace.
var actionSeq atomic.Int64

// Taps makes the recorder's stage of each world client's relay; command
// names the command a wrap --isolate runs in a world (nil: none).
func (a *Actor) Taps(command func(world string) string) func(ctx context.Context, world string, id int64) relay.Stage {
	return func(_ context.Context, world string, id int64) relay.Stage {
		client := "client " + strconv.FormatInt(id, 10)
		if command != nil {
			if c := command(world); c != "" {
				client += " (" + c + ")"
			}
		}
		return &Tap{a: a, world: world, client: client, pending: map[int64]pwtrace.Action{}, sessions: map[string]string{}}
	}
}

// Look observes, while the world is recorded, the client's actions, every
// answer, and the news of the client's sessions.
func (t *Tap) Look(f *relay.Frame) relay.Look {
	if !t.a.Recorded(t.world) {
		return 0
	}
	h := &f.Head
	switch {
	case f.Dir == relay.ToBrowser:
		if h.HasID && isAction(h.Method) {
			return relay.Observe
		}
	case h.HasID:
		return relay.Observe
	case !f.Made && sessionNews(h):
		return relay.Observe
	}
	return 0
}

// Observe notes an action, its answer, or a session of the client.
func (t *Tap) Observe(f *relay.Frame) {
	h := &f.Head
	switch {
	case f.Dir == relay.ToBrowser:
		t.request(h, f.Msg.B)
	case h.HasID:
		var msg []byte
		if !f.Partial && h.HasError {
			msg = f.Msg.B
		}
		t.answer(h.ID, h.HasError, msg, f.Refused)
	default:
		t.session(h, f.Msg.B)
	}
}

// Handle is never called: a tap claims nothing.
func (t *Tap) Handle(*relay.Line, *relay.Frame) relay.Verdict { return relay.Pass }

// Close hands on the actions never answered: the client left first.
func (t *Tap) Close() {
	t.mu.Lock()
	left := t.pending
	t.pending = map[int64]pwtrace.Action{}
	t.mu.Unlock()
	for _, act := range left {
		act.Error = "no answer: the client's connection ended first"
		t.a.give(note{world: t.world, kind: kindAction, at: act.Start, v: act})
	}
}

func (t *Tap) request(h *transport.Head, msg []byte) {
	act := actionOf(string(h.Method), msg)
	act.Client, act.Start = t.client, time.Now()
	act.ID = fmt.Sprintf("call@%d", actionSeq.Add(1))
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(h.SessionID) > 0 {
		act.Page = t.sessions[string(h.SessionID)]
	}
	if len(t.pending) < maxPendingActions {
		t.pending[h.ID] = act
	}
}

func (t *Tap) answer(id int64, failed bool, msg []byte, refused *relay.Refusal) {
	t.mu.Lock()
	act, ok := t.pending[id]
	delete(t.pending, id)
	t.mu.Unlock()
	if !ok {
		return
	}
	act.End = time.Now()
	switch {
	case refused != nil:
		act.Error = "refused by the world's wall: " + refused.Rule
	case failed:
		act.Error = errorText(msg)
	}
	t.a.give(note{world: t.world, kind: kindAction, at: act.Start, v: act})
}

// sessionNews says an event tells of a session of the client.
func sessionNews(h *transport.Head) bool {
	m := string(h.Method)
	return m == "Target.attachedToTarget" || m == "Target.detachedFromTarget"
}

// session follows which page each of the client's sessions is on.
func (t *Tap) session(h *transport.Head, msg []byte) {
	var ev struct {
		Params struct {
			SessionID  string `json:"sessionId"`
			TargetInfo struct {
				TargetID string `json:"targetId"`
				Type     string `json:"type"`
			} `json:"targetInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &ev) != nil {
		return
	}
	p := &ev.Params
	t.mu.Lock()
	defer t.mu.Unlock()
	switch string(h.Method) {
	case "Target.attachedToTarget":
		if p.TargetInfo.Type == "page" && len(t.sessions) < maxTapSessions {
			t.sessions[p.SessionID] = p.TargetInfo.TargetID
		}
	case "Target.detachedFromTarget":
		delete(t.sessions, p.SessionID)
	}
}

func errorText(msg []byte) string {
	var m struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(msg, &m)
	if m.Error.Message == "" {
		return "failed"
	}
	return cut(m.Error.Message)
}

package wall

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// fromBrowser puts a browser message through the wall before the client
// sees it: anything of another world is dropped; an answer the wall reads
// is rewritten (the client is told only of the world); a target event
// reaches the client only when it is the world's.
func (f *Wall) fromBrowser(l *relay.Line, fr *relay.Frame) relay.Verdict {
	h := &fr.Head
	if len(h.SessionID) > 0 && f.foreign[string(h.SessionID)] {
		return relay.Drop
	}
	if h.HasID {
		rw, ok := f.rewrites[h.ID]
		if !ok {
			return relay.Pass
		}
		delete(f.rewrites, h.ID)
		if out := f.answer(l, rw, h, fr.Msg.B); out != nil {
			fr.Msg.B = append(fr.Msg.B[:0], out...)
			fr.Head, _ = transport.ScanHead(fr.Msg.B)
		}
		return relay.Pass
	}
	if !f.event(l, h, fr.Msg.B) {
		return relay.Drop
	}
	return relay.Pass
}

// event says whether a browser event reaches the client: target news only
// of the world's targets. A target of another world that the client's
// auto-attach attached (waiting for the debugger, as Playwright asks) is
// resumed and let go at once, so it is neither seen nor held up.
func (f *Wall) event(l *relay.Line, h *transport.Head, msg []byte) bool {
	if !isTargetEvent(h) {
		return true
	}
	var ev struct {
		Params struct {
			SessionID          string `json:"sessionId"`
			TargetID           string `json:"targetId"`
			WaitingForDebugger bool   `json:"waitingForDebugger"`
			TargetInfo         struct {
				TargetID         string `json:"targetId"`
				Type             string `json:"type"`
				BrowserContextID string `json:"browserContextId"`
				URL              string `json:"url"`
			} `json:"targetInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &ev) != nil {
		return false // not a target event the wall can read: not shown
	}
	p := &ev.Params
	switch string(h.Method) {
	case "Target.targetCreated", "Target.targetInfoChanged":
		if !f.owns(p.TargetInfo.BrowserContextID) {
			return false
		}
		f.targets[p.TargetInfo.TargetID] = true
	case "Target.targetDestroyed", "Target.targetCrashed":
		if !f.targets[p.TargetID] {
			return false
		}
		if h.Is("Target.targetDestroyed") {
			delete(f.targets, p.TargetID)
		}
	case "Target.attachedToTarget":
		switch {
		case f.owns(p.TargetInfo.BrowserContextID):
			f.targets[p.TargetInfo.TargetID] = true
			f.sessions[p.SessionID] = p.TargetInfo.TargetID
		case p.TargetInfo.Type == "browser":
			// The client's own Target.attachToBrowserTarget: the browser's
			// session, in no context, on which the wall holds as well.
		default:
			f.letGo(l, p.SessionID, h.SessionID, p.WaitingForDebugger)
			return false
		}
	case "Target.detachedFromTarget", "Target.receivedMessageFromTarget":
		if h.Is("Target.detachedFromTarget") {
			delete(f.sessions, p.SessionID)
		}
		if f.foreign[p.SessionID] {
			if h.Is("Target.detachedFromTarget") {
				delete(f.foreign, p.SessionID)
			}
			return false
		}
	}
	return true
}

// letGo resumes a foreign target the client's auto-attach attached (if
// it waits for the debugger) and detaches from it, through the session it
// was attached on. Nothing of the session reaches the client meanwhile;
// the answers are the wall's, and its detachedFromTarget ends the foreign
// session.
func (f *Wall) letGo(l *relay.Line, session string, parent []byte, waiting bool) {
	f.foreign[session] = true
	if waiting {
		l.Ask(func(id int64) []byte {
			return transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"method":"Runtime.runIfWaitingForDebugger"`, id), []byte(session))
		}, nil)
	}
	l.Ask(func(id int64) []byte {
		detach := fmt.Appendf(nil, `{"id":%d,"method":"Target.detachFromTarget","params":{"sessionId":%s}`, id, jsonString(session))
		return transport.AppendSession(detach, parent)
	}, nil)
}

// askTimeout bounds what a relay waits for the worlds' book.
const askTimeout = 5 * time.Second

// answer rewrites the answer to a request whose answer the wall reads: the
// client is told only of the world. nil: the answer goes as it is.
func (f *Wall) answer(l *relay.Line, rw rewriting, h *transport.Head, msg []byte) []byte {
	if h.HasError {
		return nil
	}
	switch rw.rule {
	case listsTargets:
		var ans struct {
			Result struct {
				TargetInfos []json.RawMessage `json:"targetInfos"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) != nil {
			return nil
		}
		mine := make([]json.RawMessage, 0, len(ans.Result.TargetInfos))
		for _, raw := range ans.Result.TargetInfos {
			var info struct {
				TargetID         string `json:"targetId"`
				BrowserContextID string `json:"browserContextId"`
			}
			if json.Unmarshal(raw, &info) == nil && f.owns(info.BrowserContextID) {
				f.targets[info.TargetID] = true
				mine = append(mine, raw)
			}
		}
		result, _ := json.Marshal(struct {
			TargetInfos []json.RawMessage `json:"targetInfos"`
		}{mine})
		return resultAnswer(h.ID, h.SessionID, result)
	case listsContexts:
		var ans struct {
			Result struct {
				BrowserContextIDs []string `json:"browserContextIds"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) != nil {
			return nil
		}
		// The world's own context stands for the default one; the others
		// are those its clients made, as the browser still has them.
		made := f.w.Made()
		mine := make([]string, 0, len(made))
		for _, id := range ans.Result.BrowserContextIDs {
			if id != f.context && slices.Contains(made, id) {
				mine = append(mine, id)
			}
		}
		result, _ := json.Marshal(struct {
			BrowserContextIDs       []string `json:"browserContextIds"`
			DefaultBrowserContextID string   `json:"defaultBrowserContextId"`
		}{mine, f.context})
		return resultAnswer(h.ID, h.SessionID, result)
	case makesContext:
		var ans struct {
			Result struct {
				BrowserContextID string `json:"browserContextId"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) == nil && ans.Result.BrowserContextID != "" {
			// Before the client knows the id: its events must find it the world's.
			ctx, cancel := context.WithTimeout(l.Context(), askTimeout)
			if err := f.w.AddMade(ctx, f.gen, ans.Result.BrowserContextID); err != nil {
				l.Log().Warn().Err(err).Msg("the world did not take a context its client made")
			}
			cancel()
		}
	case disposesContext:
		f.w.Disposed(f.gen, rw.context)
	case createsTarget:
		var ans struct {
			Result struct {
				TargetID string `json:"targetId"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) == nil && ans.Result.TargetID != "" {
			// Before the client can navigate it: the world's kept origins'
			// localStorage is set in its first documents of them.
			f.prepare(l, ans.Result.TargetID)
		}
	}
	return nil
}

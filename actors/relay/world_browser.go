package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// worldFromBrowser puts a browser message through the world's wall before
// the client sees it. It returns true when the wall took the message: an
// answer to the filter's own request, anything of another world (dropped),
// or an answer it rewrote and wrote to the client itself. False: the
// message goes to the client as it is.
func (run *relayRun) worldFromBrowser(h *transport.Head, msg []byte) bool {
	f := run.world
	if h.HasID {
		if own, ok := f.own[h.ID]; ok {
			delete(f.own, h.ID)
			run.worldOwnAnswered(own, h, msg)
			return true
		}
	}
	if len(h.SessionID) > 0 && f.foreign[string(h.SessionID)] {
		return true
	}
	if h.HasID {
		rw, ok := f.rewrites[h.ID]
		if !ok {
			return false
		}
		delete(f.rewrites, h.ID)
		run.inflight.answered(h.ID)
		if out := run.worldAnswer(rw, h, msg); out != nil {
			run.answerClient(out)
			return true
		}
		return false
	}
	return !run.worldEvent(h, msg)
}

// worldEvent says whether a browser event reaches the client: target news
// only of the world's targets. A target of another world that the client's
// auto-attach attached (waiting for the debugger, as Playwright asks) is
// resumed and let go at once, so it is neither seen nor held up.
func (run *relayRun) worldEvent(h *transport.Head, msg []byte) bool {
	f := run.world
	if !isWorldTargetEvent(h) {
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
			run.worldLetGo(p.SessionID, h.SessionID, p.WaitingForDebugger)
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

// worldLetGo resumes a foreign target the client's auto-attach attached
// (if it waits for the debugger) and detaches from it, through the session
// it was attached on. Nothing of the session reaches the client meanwhile.
func (run *relayRun) worldLetGo(session string, parent []byte, waiting bool) {
	f := run.world
	f.foreign[session] = true
	if run.link == nil {
		return
	}
	var reqs [][]byte
	if waiting {
		id := run.internalID()
		f.own[id] = worldOwnRequest{session: session}
		reqs = append(reqs, fmt.Appendf(nil, `{"id":%d,"method":"Runtime.runIfWaitingForDebugger","sessionId":%s}`, id, jsonString(session)))
	}
	id := run.internalID()
	f.own[id] = worldOwnRequest{session: session}
	detach := fmt.Appendf(nil, `{"id":%d,"method":"Target.detachFromTarget","params":{"sessionId":%s}`, id, jsonString(session))
	reqs = append(reqs, appendSession(detach, parent))
	for _, q := range reqs {
		if err := run.link.conn.Write(q, false); err != nil {
			run.browserLost(err)
			return
		}
	}
}

// worldOwnAnswered takes the answer to one of the filter's own requests.
func (run *relayRun) worldOwnAnswered(own worldOwnRequest, h *transport.Head, msg []byte) {
	if own.history {
		run.worldHistoryLookedUp(h.HasError, msg)
		return
	}
	if !own.lookup {
		return // a resume or a detach: its detachedFromTarget ends the foreign session
	}
	var res struct {
		Result struct {
			TargetInfo struct {
				BrowserContextID string `json:"browserContextId"`
			} `json:"targetInfo"`
		} `json:"result"`
	}
	owned := !h.HasError && json.Unmarshal(msg, &res) == nil && run.world.owns(res.Result.TargetInfo.BrowserContextID)
	run.worldLookedUp(owned)
}

// worldAskTimeout bounds what a relay waits for the worlds' book.
const worldAskTimeout = 5 * time.Second

// worldAnswer rewrites the answer to a request whose answer the wall reads:
// the client is told only of the world. nil: the answer goes as it is.
func (run *relayRun) worldAnswer(rw worldRewrite, h *transport.Head, msg []byte) []byte {
	f := run.world
	if h.HasError {
		return nil
	}
	switch rw.rule {
	case worldListsTargets:
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
	case worldListsContexts:
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
	case worldMakesContext:
		var ans struct {
			Result struct {
				BrowserContextID string `json:"browserContextId"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) == nil && ans.Result.BrowserContextID != "" {
			// Before the client knows the id: its events must find it the world's.
			ctx, cancel := context.WithTimeout(run.ctx, worldAskTimeout)
			if err := f.w.AddMade(ctx, f.gen, ans.Result.BrowserContextID); err != nil {
				run.log.Warn().Err(err).Msg("the world did not take a context its client made")
			}
			cancel()
		}
	case worldDisposesContext:
		f.w.Disposed(f.gen, rw.context)
	case worldCreatesTarget:
		var ans struct {
			Result struct {
				TargetID string `json:"targetId"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &ans) == nil && ans.Result.TargetID != "" {
			// Before the client can navigate it: the world's kept origins'
			// localStorage is set in its first documents of them.
			run.prepare(ans.Result.TargetID)
		}
	}
	return nil
}

// answerClient writes an answer of the relay's own to the client.
func (run *relayRun) answerClient(msg []byte) { run.refuseClient(msg, nil) }

// refuseClient writes an answer of the relay's own to the client; refused,
// when set, says why it refused the request (the stages' observers keep
// it: a journal's denial).
func (run *relayRun) refuseClient(msg []byte, refused *Refusal) {
	written, err := run.answer(len(run.stages), msg, refused)
	if err != nil {
		run.forwardFailed(err)
		return
	}
	if written {
		run.r.spec.Traffic.toClient(int64(len(msg)))
	}
}

// worldCloseBrowser is the client's Browser.close inside a world: the
// world's pages close, the browser and the other worlds go on; the client
// is answered and its connection closes, as after a real Browser.close.
func (run *relayRun) worldCloseBrowser(h *transport.Head) {
	ep := run.r.spec.Endpoint
	if run.link != nil {
		ep = run.link.ep
	}
	ctx, cancel := context.WithTimeout(run.ctx, 2*worldAskTimeout)
	err := run.world.w.CloseBrowser(ctx, ep)
	cancel()
	if err != nil {
		run.log.Warn().Err(err).Str("world", run.world.w.Name()).Msg("the world's pages were not all closed")
	}
	run.log.Info().Str("world", run.world.w.Name()).Msg("Browser.close in a world: its pages closed, the browser stays")
	run.answerClient(run.dialect.success(nil, h))
	run.close(1000, "")
}

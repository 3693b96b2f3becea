package wall

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// lookup is a client request the wall cannot judge alone: one naming a
// target the client was not told of waits for Target.getTargetInfo to say
// whose it is; a guarded world's Page.navigateToHistoryEntry waits for
// Page.getNavigationHistory to say where its entry goes. The client's
// later messages wait behind it, in order.
type lookup struct {
	msg     *transport.Message
	target  string
	history bool  // a history entry's lookup
	entry   int64 // its entry
}

// ask starts lookup lk with the wall's own request q; the answer goes to
// then. The request is the wall's until then (Hold).
func (f *Wall) ask(l *relay.Line, lk *lookup, q func(id int64) []byte, then func(*relay.Line, *relay.Frame)) relay.Verdict {
	f.lookup = lk
	if !l.Ask(q, then) && f.lookup == lk {
		// No browser to ask: the request goes to the queue, and meets the
		// wall when it is sent. (A browser lost as it was asked took it
		// back with what the wall held: Lost.)
		f.lookup = nil
		l.Send(relay.ToBrowser, lk.msg)
	}
	return relay.Hold
}

// take ends the lookup under way: its request and the request's head; nil
// when there is none.
func (f *Wall) take() (*lookup, *transport.Head) {
	lk := f.lookup
	f.lookup = nil
	if lk == nil {
		return nil, nil
	}
	h, _ := transport.ScanHead(lk.msg.B)
	return lk, &h
}

// lookUpTarget asks the browser whose a target is before a request naming
// it goes on.
func (f *Wall) lookUpTarget(l *relay.Line, msg *transport.Message, target string) relay.Verdict {
	q := func(id int64) []byte {
		return fmt.Appendf(nil, `{"id":%d,"method":"Target.getTargetInfo","params":{"targetId":%s}}`, id, jsonString(target))
	}
	return f.ask(l, &lookup{msg: msg, target: target}, q, f.targetLookedUp)
}

// targetLookedUp goes on with the request that waited for its target:
// sent on if the target is the world's, else answered as Chromium answers
// an unknown target; then the messages behind it.
func (f *Wall) targetLookedUp(l *relay.Line, answer *relay.Frame) {
	var res struct {
		Result struct {
			TargetInfo struct {
				BrowserContextID string `json:"browserContextId"`
			} `json:"targetInfo"`
		} `json:"result"`
	}
	owned := !answer.Head.HasError && json.Unmarshal(answer.Msg.B, &res) == nil && f.owns(res.Result.TargetInfo.BrowserContextID)
	lk, h := f.take()
	if lk == nil {
		return
	}
	if owned {
		f.targets[lk.target] = true
		l.Send(relay.ToBrowser, lk.msg)
	} else {
		l.Answer(errorAnswer(h.ID, h.SessionID, codeInvalidParams, errNoTarget), nil)
		lk.msg.Release()
	}
	f.resume(l)
}

// resume puts the client's messages that waited behind a lookup through
// the wall again, in order, until one starts another lookup: the rest
// waits behind it.
func (f *Wall) resume(l *relay.Line) {
	held := f.held
	f.held = nil
	for _, m := range held {
		f.again(l, m)
	}
}

package relay

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// worldRequest puts a client request through the world's wall before it
// goes to the browser. It returns true when the request goes on (msg and h
// may have been rewritten: a context put in); false when the wall took it:
// answered it itself (something of another world, which to the client does
// not exist) or holds it for a lookup.
func (run *relayRun) worldRequest(msg *transport.Message, h *transport.Head) bool {
	f := run.world
	rule := worldRuleOf(h)
	if rule == worldPasses || !run.worldDoors(msg, h, rule) {
		return rule == worldPasses
	}
	if rule.guardedOnly() {
		return true // through the doors: not the rest of the wall's business
	}
	switch rule {
	case worldClosesBrowser:
		// Taken when it arrives (onClient); never the browser's, whatever
		// way it came here.
		run.worldCloseBrowser(h)
		msg.Release()
		return false
	case worldListsTargets, worldListsContexts, worldMakesContext:
		if rule == worldMakesContext && !run.worldGuardsContext(msg, h) {
			return false
		}
		f.rewrites[h.ID] = worldRewrite{rule: rule}
		return true
	case worldBrowserWide:
		run.answerClient(errorAnswer(h.ID, h.SessionID, codeServerError, fmt.Sprintf(errBrowserWide, h.Method, f.w.Name())))
		msg.Release()
		return false
	}
	p, err := readWorldParams(msg.B)
	if err != nil {
		// What the wall cannot read does not pass it.
		run.worldInvalid(msg, h)
		return false
	}
	switch rule {
	case worldNamesTarget:
		if p.TargetID != nil && f.targets[*p.TargetID] && h.Is("Target.closeTarget") {
			// What the page changed is the world's before it goes.
			f.w.BeforeClose(run.ctx, f.gen, *p.TargetID)
		}
		if p.TargetID == nil || f.targets[*p.TargetID] {
			return true
		}
		run.worldLookup(msg, h, *p.TargetID)
		return false
	case worldDisposesContext:
		id := deref(p.BrowserContextID)
		if id == f.context || !f.owns(id) {
			// The world's own context is its default one: not disposable.
			run.worldRefuse(msg, h, rule, id)
			return false
		}
		f.rewrites[h.ID] = worldRewrite{rule: rule, context: id}
		return true
	}
	// Creating a target, or a request that takes a context.
	id := deref(p.BrowserContextID)
	if rule == worldCreatesTarget && (id == "" || id == f.context || f.former[id]) {
		f.rewrites[h.ID] = worldRewrite{rule: rule} // a page of the world's own context: prepared before the client navigates it
	}
	switch {
	case id != "" && f.owns(id):
		return true
	case id != "" && !f.former[id]:
		run.worldRefuse(msg, h, rule, id)
		return false
	}
	// No context (Chromium's default), or the world's in a browser that is
	// gone (a request sent again after a recovery): the world's.
	rewritten, err := withContext(msg.B, f.context)
	if err != nil {
		run.worldInvalid(msg, h)
		return false
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return true
}

// errBrowserWide refuses a world's client what only the whole browser's
// endpoint may do (the method, the world).
const errBrowserWide = "%s is refused in world %q: an extension is the whole browser's and its service worker lives outside every world; send it on the endpoint without /context/NAME"

// worldRefuse answers a request about a context that is not the world's
// with Chromium's error for a context it does not know.
func (run *relayRun) worldRefuse(msg *transport.Message, h *transport.Head, rule worldRule, id string) {
	code, text := noContext(rule, id)
	run.answerClient(errorAnswer(h.ID, h.SessionID, code, text))
	msg.Release()
}

// worldInvalid answers a request whose parameters the wall cannot read,
// as Chromium answers parameters it cannot read.
func (run *relayRun) worldInvalid(msg *transport.Message, h *transport.Head) {
	run.answerClient(errorAnswer(h.ID, h.SessionID, codeInvalidParams, "Invalid parameters"))
	msg.Release()
}

// worldLookup asks the browser whose a target is before a request naming
// it goes on; the client's later messages wait behind it, in order.
func (run *relayRun) worldLookup(msg *transport.Message, h *transport.Head, target string) {
	f := run.world
	f.lookup = &worldLookup{msg: msg, target: target}
	id := run.internalID()
	f.own[id] = worldOwnRequest{lookup: true}
	q := fmt.Appendf(nil, `{"id":%d,"method":"Target.getTargetInfo","params":{"targetId":%s}}`, id, jsonString(target))
	if err := run.link.conn.Write(q, false); err != nil {
		run.browserLost(err)
	}
}

// worldLookedUp goes on with the request that waited for its target:
// forwarded if the target is the world's, else answered as Chromium
// answers an unknown target; then the messages behind it.
func (run *relayRun) worldLookedUp(owned bool) {
	l, h := run.world.takeLookup()
	if l == nil {
		return
	}
	if owned {
		run.world.targets[l.target] = true
		run.forward(l.msg, h, unwatched)
	} else {
		run.answerClient(errorAnswer(h.ID, h.SessionID, codeInvalidParams, errNoTarget))
		l.msg.Release()
	}
	run.worldResume()
}

// worldResume sends on the client's messages that waited behind a lookup,
// in order, until one starts another lookup.
func (run *relayRun) worldResume() {
	f := run.world
	held := f.held
	f.held = nil
	for i, m := range held {
		if run.link == nil || !run.machine.Is(fsm.ConnConnected) {
			run.queue = append(run.queue, held[i:]...) // the browser went meanwhile
			return
		}
		mh, _ := transport.ScanHead(m.B)
		run.sendOn(m, &mh, nil) // past the stages already; may start another lookup: the rest waits behind it
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

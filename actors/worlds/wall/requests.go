package wall

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// request puts a client request through the wall before it goes to the
// browser: Pass when it goes on (msg and h may have been rewritten: a
// context put in); Answer when the wall answered it itself (something of
// another world, which to the client does not exist); Hold when the wall
// keeps it, behind a lookup or a page being prepared, or for a lookup of
// its own.
func (f *Wall) request(l *relay.Line, msg *transport.Message, h *transport.Head) relay.Verdict {
	if f.lookup != nil {
		f.held = append(f.held, msg) // behind a lookup, in order
		return relay.Hold
	}
	if f.waitForPreparation(msg, h) {
		return relay.Hold
	}
	r := ruleOf(h)
	if r == passes {
		return relay.Pass
	}
	if v := f.doors(l, msg, h, r); v != relay.Pass || r.guardedOnly() {
		return v // through the doors, a guarded world's door is not the rest of the wall's business
	}
	switch r {
	case closesBrowser:
		// Taken when it arrives (Greet); never the browser's, whatever way
		// it came here.
		f.closeBrowser(l, h)
		return relay.Answer
	case listsTargets, listsContexts, makesContext:
		if r == makesContext && !f.guardsContext(l, msg, h) {
			return relay.Answer
		}
		f.rewrites[h.ID] = rewriting{rule: r}
		return relay.Pass
	case browserWide:
		l.Answer(errorAnswer(h.ID, h.SessionID, codeServerError, fmt.Sprintf(errBrowserWide, h.Method, f.w.Name())), nil)
		return relay.Answer
	}
	p, err := readParams(msg.B)
	if err != nil {
		// What the wall cannot read does not pass it.
		return f.invalid(l, h)
	}
	switch r {
	case namesTarget:
		if p.TargetID != nil && f.targets[*p.TargetID] && h.Is("Target.closeTarget") {
			// What the page changed is the world's before it goes.
			f.w.BeforeClose(l.Context(), f.gen, *p.TargetID)
		}
		if p.TargetID == nil || f.targets[*p.TargetID] {
			return relay.Pass
		}
		return f.lookUpTarget(l, msg, *p.TargetID)
	case disposesContext:
		id := deref(p.BrowserContextID)
		if id == f.context || !f.owns(id) {
			// The world's own context is its default one: not disposable.
			return f.refuse(l, h, r, id)
		}
		f.rewrites[h.ID] = rewriting{rule: r, context: id}
		return relay.Pass
	}
	// Creating a target, or a request that takes a context.
	id := deref(p.BrowserContextID)
	if r == createsTarget && (id == "" || id == f.context || f.former[id]) {
		f.rewrites[h.ID] = rewriting{rule: r} // a page of the world's own context: prepared before the client navigates it
	}
	switch {
	case id != "" && f.owns(id):
		return relay.Pass
	case id != "" && !f.former[id]:
		return f.refuse(l, h, r, id)
	}
	// No context (Chromium's default), or the world's in a browser that is
	// gone (a request sent again after a recovery): the world's.
	rewritten, err := withContext(msg.B, f.context)
	if err != nil {
		return f.invalid(l, h)
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return relay.Pass
}

// again puts a client message the wall held through it once more, and
// sends it on if it passes: held behind a lookup or a page being
// prepared, it meets the wall as if it arrived now. While no browser is
// there it goes to the queue, and meets the wall when it is sent.
func (f *Wall) again(l *relay.Line, msg *transport.Message) {
	if !l.Connected() {
		l.Send(relay.ToBrowser, msg)
		return
	}
	h, _ := transport.ScanHead(msg.B)
	switch f.request(l, msg, &h) {
	case relay.Pass:
		l.Send(relay.ToBrowser, msg)
	case relay.Hold:
	default:
		msg.Release()
	}
}

// errBrowserWide refuses a world's client what only the whole browser's
// endpoint may do (the method, the world).
const errBrowserWide = "%s is refused in world %q: an extension is the whole browser's and its service worker lives outside every world; send it on the endpoint without /context/NAME"

// refuse answers a request about a context that is not the world's with
// Chromium's error for a context it does not know.
func (f *Wall) refuse(l *relay.Line, h *transport.Head, r rule, id string) relay.Verdict {
	code, text := noContext(r, id)
	l.Answer(errorAnswer(h.ID, h.SessionID, code, text), nil)
	return relay.Answer
}

// invalid answers a request whose parameters the wall cannot read, as
// Chromium answers parameters it cannot read.
func (f *Wall) invalid(l *relay.Line, h *transport.Head) relay.Verdict {
	l.Answer(errorAnswer(h.ID, h.SessionID, codeInvalidParams, "Invalid parameters"), nil)
	return relay.Answer
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

package wall

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// The wall takes part in the recovery through the stages' hooks, nearest
// the browser: what it held goes again to the next browser (Lost), the
// world's context is made there (Rebase), the replayed subscriptions are
// walled (Replay).

// Lost is the browser going: what waited for its answers is sent again to
// the next one, in order (the lookup's request first, then those behind
// it), and what the wall asked of it is void.
func (f *Wall) Lost() []*transport.Message {
	var again []*transport.Message
	if f.lookup != nil {
		again = append(again, f.lookup.msg)
		f.lookup = nil
	}
	again = append(again, f.held...)
	again = append(again, f.beforePrepared...)
	f.held, f.beforePrepared = nil, nil
	clear(f.preparing) // that browser's pages: the answers still to come find nothing
	clear(f.foreign)
	clear(f.rewrites) // the requests are sent again, and noted again then
	return again
}

// Rebase has the world's context made in the new browser at ep, in the
// dial worker (a browser that does not answer fails the attempt, as its
// bootstrap would); then the wall follows it there, in the actor.
func (f *Wall) Rebase(ctx context.Context, ep browser.Endpoint) (func(), error) {
	context, err := f.w.Context(ctx, ep)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", f.w.Name(), err)
	}
	return func() { f.rebase(context, ep.Generation) }, nil
}

// rebase follows the world into a new browser: its new context, and
// nothing the client knew of the old one.
func (f *Wall) rebase(context string, gen int) {
	if f.context != "" && f.context != context {
		f.former[f.context] = true
	}
	f.context, f.gen = context, gen
	clear(f.targets)
	clear(f.sessions)
	clear(f.foreign)
}

// Replay walls one of the relay's own requests (a replayed subscription):
// one that takes a context gets the world's when it names none or the
// world's in a browser gone (the client's Browser.setDownloadBehavior, in
// the world); one naming a context not the world's, or that the wall
// cannot read, is not sent (false). A client's request held while no
// browser was there is recorded before the wall sees it.
func (f *Wall) Replay(msg []byte) ([]byte, bool) {
	h, err := transport.ScanHead(msg)
	if err != nil || ruleOf(&h) == passes {
		return msg, true
	}
	if ruleOf(&h) != namesContext {
		return nil, false // a subscription is never another kind of walled request
	}
	p, err := readParams(msg)
	if err != nil {
		return nil, false
	}
	if f.w.Walled() && h.Is("Browser.setDownloadBehavior") {
		if msg, _, err = keptDownloads(f.w, msg); err != nil {
			return nil, false
		}
	}
	id := deref(p.BrowserContextID)
	switch {
	case id != "" && f.owns(id):
		return msg, true
	case id != "" && !f.former[id]:
		return nil, false
	}
	out, err := withContext(msg, f.context)
	return out, err == nil
}

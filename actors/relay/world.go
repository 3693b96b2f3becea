package relay

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// World is the world a relay's client lives in (actors/worlds): a browser
// context of its own on the shared browser. Its relay shows the client
// only the world's targets and contexts, puts what the client makes
// without a context into the world's, refuses the rest of the browser as
// Chromium refuses what does not exist, and turns Browser.close into
// closing the world's pages.
type World interface {
	Name() string
	// Context is the world's context in the browser at ep, made there if
	// need be (after a recovery: the new browser's).
	Context(ctx context.Context, ep browser.Endpoint) (string, error)
	// Owns says a context is the world's in the browser of the moment: its
	// own, or one its clients made. Read for every target event: no
	// mailbox behind it.
	Owns(contextID string) bool
	// Made lists the contexts its clients made.
	Made() []string
	// AddMade records a context a client made in browser generation gen.
	AddMade(ctx context.Context, gen int, contextID string) error
	// Disposed says a client disposed a context it made.
	Disposed(gen int, contextID string)
	// CloseBrowser closes the world's pages (a client's Browser.close).
	CloseBrowser(ctx context.Context, ep browser.Endpoint) error
	// PreparePage gets a page a client made in the world's own context
	// ready for the world's kept storage; the client's navigation waits
	// for it (world_prepare.go).
	PreparePage(ctx context.Context, gen int, target string)
	// BeforeClose reads what a page of the world's own context keeps
	// (its origin's localStorage) before its client closes it.
	BeforeClose(ctx context.Context, gen int, target string)
	// Proxy is the world's network guard as a context's proxyServer and
	// proxyBypassList, put into every context its clients make; "" when
	// the world has no network policy. Read without a mailbox.
	Proxy() (server, bypass string)
	// Walled says the world has a guard: its clients touch nothing of the
	// machine, as the Door methods judge (world_doors.go). The four are
	// read without a mailbox.
	Walled() bool
	// DoorURL is nil when a client of the world may have the browser load
	// the URL, else the reason it may not.
	DoorURL(url string) error
	// DoorFile is nil when a client of the world may hand its pages the
	// file at path.
	DoorFile(path string) error
	// DoorDownloads is where a download path a client names lands; "":
	// nowhere (its downloads are denied).
	DoorDownloads(path string) (string, error)
}

// worldFilter is a world relay's wall: what its client was told of the
// world, and what the relay is doing about the rest of the browser. The
// actor owns it. The fast path's readers read foreign and rewrites (through
// holdsBack) under the fast path's gate, while the fast path is on; the
// actor changes them only while it is off (it always is while the actor
// acts), so no lock of their own.
type worldFilter struct {
	w       World
	context string          // the world's context in the browser of the moment
	gen     int             // that browser's generation
	former  map[string]bool // the world's contexts in browsers that are gone: named by a client, they mean its context now
	targets map[string]bool // the world's targets the client was told of
	// sessions are the client's sessions on the world's targets, by
	// session: where the wall speaks to a page itself (world_doors.go).
	sessions map[string]string

	foreign  map[string]bool           // sessions on other worlds' targets, being let go: nothing of them reaches the client
	rewrites map[int64]worldRewrite    // client requests whose answers the filter reads before the client does
	own      map[int64]worldOwnRequest // the filter's own requests awaiting their answer

	lookup *worldLookup         // a client request waiting to learn its target's context
	held   []*transport.Message // client messages behind it, in their order

	preparing      map[string]bool      // pages the client made that the world is preparing
	beforePrepared []*transport.Message // the client's navigation behind them, and what came after it
}

// worldRewrite is what the filter does with the answer to a request.
type worldRewrite struct {
	rule    worldRule
	context string // disposeBrowserContext: the context
}

// worldLookup is a client request the wall cannot judge alone: one naming
// a target the client was not told of waits for Target.getTargetInfo to
// say whose it is; a guarded world's Page.navigateToHistoryEntry waits for
// Page.getNavigationHistory to say where its entry goes.
type worldLookup struct {
	msg     *transport.Message
	target  string
	history bool  // a history entry's lookup
	entry   int64 // its entry
}

// worldOwnRequest is one of the filter's own requests.
type worldOwnRequest struct {
	lookup  bool   // the target lookup
	history bool   // the history lookup; neither: a resume or detach of a foreign session
	session string // the foreign session it is about
}

func newWorldFilter(w World, context string, gen int) *worldFilter {
	return &worldFilter{
		w: w, context: context, gen: gen, former: map[string]bool{}, targets: map[string]bool{}, sessions: map[string]string{},
		foreign: map[string]bool{}, rewrites: map[int64]worldRewrite{}, own: map[int64]worldOwnRequest{},
	}
}

// owns says a context is the world's.
func (f *worldFilter) owns(contextID string) bool {
	return contextID != "" && (contextID == f.context || f.w.Owns(contextID))
}

// holdsBack says a browser message must pass through the actor before the
// client may see it: a target event, an answer the filter rewrites, or
// anything of a foreign session. Called by the fast path's readers.
func (f *worldFilter) holdsBack(h *transport.Head) bool {
	if len(f.foreign) > 0 && len(h.SessionID) > 0 && f.foreign[string(h.SessionID)] {
		return true
	}
	if h.HasID {
		_, ok := f.rewrites[h.ID]
		return ok
	}
	return isWorldTargetEvent(h)
}

// takeLookup ends the lookup under way: its request and the request's
// head; nil when there is none.
func (f *worldFilter) takeLookup() (*worldLookup, *transport.Head) {
	l := f.lookup
	f.lookup = nil
	if l == nil {
		return nil, nil
	}
	h, _ := transport.ScanHead(l.msg.B)
	return l, &h
}

// claims says the wall must see a client request in the actor: one of
// its rules, but a guarded world's door in a world without a guard (an
// atomic read: the fast path calls it).
func (f *worldFilter) claims(h *transport.Head) bool {
	rule := worldRuleOf(h)
	return rule != worldPasses && (!rule.guardedOnly() || f.w.Walled())
}

// holding says client messages wait behind a lookup.
func (f *worldFilter) holding() bool { return f.lookup != nil }

// busy says the actor must see every client message: one waits behind a
// lookup, or a page is being prepared.
func (f *worldFilter) busy() bool { return f.lookup != nil || len(f.preparing) > 0 }

// The wall takes part in the recovery through the stages' hooks (hooks.go),
// nearest the browser: what it held goes again to the next browser
// (Requeuer), the world's context is made there (Rebaser), the replayed
// subscriptions are walled (Replayer).
var (
	_ Requeuer = (*worldFilter)(nil)
	_ Rebaser  = (*worldFilter)(nil)
	_ Replayer = (*worldFilter)(nil)
)

// Lost is lost (Requeuer).
func (f *worldFilter) Lost() []*transport.Message { return f.lost() }

// Rebase has the world's context made in the new browser at ep, in the
// dial worker (a browser that does not answer fails the attempt, as its
// bootstrap would); then the wall follows it there, in the actor.
func (f *worldFilter) Rebase(ctx context.Context, ep browser.Endpoint) (func(), error) {
	context, err := f.w.Context(ctx, ep)
	if err != nil {
		return nil, fmt.Errorf("world %s: %w", f.w.Name(), err)
	}
	return func() { f.rebase(context, ep.Generation) }, nil
}

// Replay is ownRequest (Replayer).
func (f *worldFilter) Replay(msg []byte) ([]byte, bool) { return f.ownRequest(msg) }

// rebase follows the world into a new browser: its new context, and
// nothing the client knew of the old one.
func (f *worldFilter) rebase(context string, gen int) {
	if f.context != "" && f.context != context {
		f.former[f.context] = true
	}
	f.context, f.gen = context, gen
	clear(f.targets)
	clear(f.sessions)
	clear(f.foreign)
	clear(f.own)
}

// lost is the browser going: what waited for its answers is sent again to
// the next one, in order (the lookup's request first, then those behind
// it), and what the filter asked of it is void.
func (f *worldFilter) lost() []*transport.Message {
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
	clear(f.own)
	clear(f.rewrites) // the requests are sent again, and noted again then
	return again
}

// release gives back what the filter holds when the relay ends.
func (f *worldFilter) release() {
	for _, m := range f.lost() {
		m.Release()
	}
}

// ownRequest walls one of the relay's own requests (a replayed
// subscription): one that takes a context gets the world's when it names
// none or the world's in a browser gone (the client's
// Browser.setDownloadBehavior, in the world); one naming a context not the
// world's, or that the wall cannot read, is not sent (false). A client's
// request held while no browser was there is recorded before the wall sees
// it.
func (f *worldFilter) ownRequest(msg []byte) ([]byte, bool) {
	h, err := transport.ScanHead(msg)
	if err != nil || worldRuleOf(&h) == worldPasses {
		return msg, true
	}
	if worldRuleOf(&h) != worldNamesContext {
		return nil, false // a subscription is never another kind of walled request
	}
	p, err := readWorldParams(msg)
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

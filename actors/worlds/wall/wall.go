// Package wall is a world's wall: the stage of a world's client's relay
// (relay.Stage), nearest the browser, that shows the client only the
// world's targets and contexts, puts what the client makes without a
// context into the world's, refuses the rest of the browser as Chromium
// refuses what does not exist, turns Browser.close into closing the
// world's pages, and keeps a guarded world's doors to the machine shut.
package wall

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// World is the world a wall keeps its client in (actors/worlds): a browser
// context of its own on the shared browser.
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
	// for it (prepare.go).
	PreparePage(ctx context.Context, gen int, target string)
	// BeforeClose reads what a page of the world's own context keeps
	// (its origin's localStorage) before its client closes it.
	BeforeClose(ctx context.Context, gen int, target string)
	// Proxy is the world's network guard as a context's proxyServer and
	// proxyBypassList, put into every context its clients make; "" when
	// the world has no network policy. Read without a mailbox.
	Proxy() (server, bypass string)
	// Walled says the world has a guard: its clients touch nothing of the
	// machine, as the Door methods judge (doors.go). The four are read
	// without a mailbox.
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

// Wall is one client's wall: what its client was told of the world, and
// what the wall is doing about the rest of the browser. Its relay's actor
// owns it (Handle, the Line's callbacks); the fast path's readers call
// Look, which reads foreign, rewrites, lookup and preparing, while the
// fast path is on, and the actor changes them only while it is off, so no
// lock of its own.
type Wall struct {
	w       World
	context string          // the world's context in the browser of the moment
	gen     int             // that browser's generation
	former  map[string]bool // the world's contexts in browsers that are gone: named by a client, they mean its context now
	targets map[string]bool // the world's targets the client was told of
	// sessions are the client's sessions on the world's targets, by
	// session: where the wall speaks to a page itself (doors.go).
	sessions map[string]string

	foreign  map[string]bool     // sessions on other worlds' targets, being let go: nothing of them reaches the client
	rewrites map[int64]rewriting // client requests whose answers the wall reads before the client does

	lookup *lookup              // a client request waiting to learn its target's context
	held   []*transport.Message // client messages behind it, in their order

	preparing      map[string]bool      // pages the client made that the world is preparing
	beforePrepared []*transport.Message // the client's navigation behind them, and what came after it
}

// rewriting is what the wall does with the answer to a request.
type rewriting struct {
	rule    rule
	context string // disposeBrowserContext: the context
}

// New is the wall of a client of world w, whose context in the browser of
// generation gen is context.
func New(w World, context string, gen int) *Wall {
	return &Wall{
		w: w, context: context, gen: gen, former: map[string]bool{}, targets: map[string]bool{}, sessions: map[string]string{},
		foreign: map[string]bool{}, rewrites: map[int64]rewriting{},
	}
}

// The wall is a stage with a part in a client's arrival (Browser.close,
// Greeter) and in the recovery (recovery.go).
var (
	_ relay.Stage    = (*Wall)(nil)
	_ relay.Greeter  = (*Wall)(nil)
	_ relay.Requeuer = (*Wall)(nil)
	_ relay.Rebaser  = (*Wall)(nil)
	_ relay.Replayer = (*Wall)(nil)
)

// Look claims the client requests the wall judges (all of them while it
// holds some back), and the browser's messages it must see before the
// client does: a target event, an answer it rewrites, anything of a
// foreign session. What the relay made itself is not the browser's: the
// wall leaves it alone.
func (f *Wall) Look(fr *relay.Frame) relay.Look {
	if fr.Dir == relay.ToBrowser {
		if f.busy() || f.claims(&fr.Head) {
			return relay.Claim
		}
		return 0
	}
	if !fr.Made && f.holdsBack(&fr.Head) {
		return relay.Claim
	}
	return 0
}

// Observe is never called: the wall observes nothing.
func (f *Wall) Observe(*relay.Frame) {}

// Handle judges a client request on its way to the browser (requests.go),
// or a browser message on its way to the client (browser.go).
func (f *Wall) Handle(l *relay.Line, fr *relay.Frame) relay.Verdict {
	if fr.Dir == relay.ToClient {
		return f.fromBrowser(l, fr)
	}
	if !l.Connected() {
		// On its way to the queue, judged when it is sent to the next
		// browser.
		return relay.Pass
	}
	return f.request(l, fr.Msg, &fr.Head)
}

// Close gives back what the wall holds when the relay ends.
func (f *Wall) Close() {
	for _, m := range f.Lost() {
		m.Release()
	}
}

// owns says a context is the world's.
func (f *Wall) owns(contextID string) bool {
	return contextID != "" && (contextID == f.context || f.w.Owns(contextID))
}

// holdsBack says a browser message must pass through the actor before the
// client may see it: a target event, an answer the wall rewrites, or
// anything of a foreign session. Called by the fast path's readers.
func (f *Wall) holdsBack(h *transport.Head) bool {
	if len(f.foreign) > 0 && len(h.SessionID) > 0 && f.foreign[string(h.SessionID)] {
		return true
	}
	if h.HasID {
		_, ok := f.rewrites[h.ID]
		return ok
	}
	return isTargetEvent(h)
}

// claims says the wall must see a client request in the actor: one of
// its rules, but a guarded world's door in a world without a guard (an
// atomic read: the fast path calls it).
func (f *Wall) claims(h *transport.Head) bool {
	r := ruleOf(h)
	return r != passes && (!r.guardedOnly() || f.w.Walled())
}

// busy says the wall must see every client message: one waits behind a
// lookup, or a page is being prepared.
func (f *Wall) busy() bool { return f.lookup != nil || len(f.preparing) > 0 }

package relay

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// dialect is what a relay must know of the protocol it carries, CDP or
// WebDriver BiDi, to keep a client across browsers. Its methods read only
// the head they are given: the fast path's readers call them concurrently.
// What the client set up on the browser is the clientSetup it makes, which
// only the actor touches.
type dialect interface {
	// firstOwnID starts the relay's own id space, which counts down from
	// it; ownID says an id may be one of the relay's own (the actor decides,
	// from what it sent).
	firstOwnID() int64
	ownID(id int64) bool
	// kept: a client request the actor records or rewrites, so it never
	// takes the fast path.
	kept(h *transport.Head) bool
	// noted: a browser event the actor notes after the fast path forwarded it.
	noted(h *transport.Head) bool
	// closesBrowser: the request that closes the browser, answered by the
	// relay when the browser is gone already.
	closesBrowser(h *transport.Head) bool
	// success appends the empty successful answer to request h.
	success(dst []byte, h *transport.Head) []byte
	// bootstrapTimeout is how long the next browser has to answer the
	// bootstrap, unless Spec says.
	bootstrapTimeout() time.Duration
	// newSetup makes a client's setup; onExtension hears what the client's
	// extension requests did (CDP's).
	newSetup(log zerolog.Logger, onExtension func(extensionNews)) clientSetup
}

// clientSetup is what the client set up on the browser (subscriptions,
// sessions, the targets or contexts it was told of), kept so that the next
// browser can be set up the same way and the client told what it lost.
type clientSetup interface {
	// queued sees a request held while no browser is connected.
	queued(h *transport.Head, msg []byte)
	// sent sees a request on its way to the browser and may rewrite it (ids
	// the client knows from an earlier browser); watch asks for its answer.
	sent(h *transport.Head, msg *transport.Message) (watch watching)
	// answered sees the answer to a watched request.
	answered(h *transport.Head, msg []byte)
	// event sees a browser event.
	event(h *transport.Head, msg []byte)
	// answeredWhileGone says a request that reaches no browser is answered
	// by the relay (likely: the browser was closing when it went).
	answeredWhileGone(h *transport.Head, likely bool) bool
	// gone is told the browser went: requests it did not answer will be
	// sent again, and the events it returns tell the client that what it
	// knew of that browser is gone.
	gone() [][]byte
	// bootstrap sets the next browser up; answers to its requests come to
	// bootstrapAnswer, which may send more. An error fails the recovery.
	bootstrap(next func() int64) []ownRequest
	bootstrapAnswer(h *transport.Head, msg []byte, next func() int64) ([]ownRequest, error)
	// farewell is what to send the browser when the client leaves, for what
	// it holds there and would outlive it; nil: nothing.
	farewell(id int64) []byte
}

// ownRequest is a request of the relay's own, with its id.
type ownRequest struct {
	id  int64
	msg []byte
}

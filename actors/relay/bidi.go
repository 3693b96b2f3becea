package relay

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// bidi is WebDriver BiDi's dialect (a Firefox's /session). A BiDi
// connection holds one session, and what a client set up in it
// (subscriptions, preload scripts, intercepts) lives and dies with the
// browser: the setup replays it on the next one and maps the ids.
type bidi struct{}

// bidiOwnIDBase starts the relay's own BiDi id space, counting down: ids
// are unsigned JavaScript-safe integers (at most 2^53-1), and clients count
// up from small numbers.
const bidiOwnIDBase = 1<<53 - 1

func (bidi) firstOwnID() int64   { return bidiOwnIDBase }
func (bidi) ownID(id int64) bool { return id > bidiOwnIDBase-1<<32 }

func (bidi) kept(h *transport.Head) bool {
	if !h.HasID {
		return false
	}
	if h.Is("session.new") || h.Is("session.end") {
		return true
	}
	if h.Is("browsingContext.getTree") {
		return true // its answer tells the client of contexts no event told of: the book reads it
	}
	for _, k := range bidiResources {
		if h.Is(k.add) || h.Is(k.remove) {
			return true
		}
	}
	return false
}

func (bidi) noted(h *transport.Head) bool { return isContextEvent(h) }

func (bidi) closesBrowser(h *transport.Head) bool { return h.HasID && h.Is("browser.close") }

func (bidi) success(dst []byte, h *transport.Head) []byte {
	return fmt.Appendf(dst, `{"type":"success","id":%d,"result":{}}`, h.ID)
}

// bootstrapTimeout: Firefox answers the first session.new once its first
// window is up, seconds after its BiDi line (3-4 s on a quiet two-core
// machine, over 10 s on a loaded one).
func (bidi) bootstrapTimeout() time.Duration { return time.Minute }

func (bidi) newSetup(log zerolog.Logger, _ func(extensionNews)) clientSetup {
	return &bidiSetup{asked: map[int64]bidiRequest{}, alias: map[string]string{}, contexts: newContextBook(), replaying: map[int64]int{}, log: log}
}

// bidiResource is a kind of thing a client adds to its session and later
// removes by the id the browser gave it.
type bidiResource struct {
	add, remove string
	result      string // the id's member in add's result
	removeBy    string // the member of remove's params naming it
	many        bool   // removeBy is a list of ids
}

var bidiResources = []*bidiResource{
	{add: "session.subscribe", remove: "session.unsubscribe", result: "subscription", removeBy: "subscriptions", many: true},
	{add: "script.addPreloadScript", remove: "script.removePreloadScript", result: "script", removeBy: "script"},
	{add: "network.addIntercept", remove: "network.removeIntercept", result: "intercept", removeBy: "intercept"},
}

// resourceAddedBy is the kind of resource method adds, or nil.
func resourceAddedBy(method string) *bidiResource {
	for _, k := range bidiResources {
		if method == k.add {
			return k
		}
	}
	return nil
}

func resourceRemoved(h *transport.Head) *bidiResource {
	for _, k := range bidiResources {
		if h.Is(k.remove) {
			return k
		}
	}
	return nil
}

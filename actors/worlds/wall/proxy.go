package wall

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A world with a network policy has its context made with the world's
// guard as its proxy (actors/worlds). A context the world's client makes
// inside it (Playwright's newContext) gets the same proxy, put in by the
// wall; a client that names a proxy of its own is refused: no client of
// the world can lift its policy.

// errOwnProxy refuses a world's client a context with a proxy of its own
// (the world).
const errOwnProxy = "Target.createBrowserContext with proxyServer or proxyBypassList is refused in world %q: its network policy is enforced by its own proxy, which every context made in it gets; make the context without one"

// guardsContext puts the world's guard into a client's
// Target.createBrowserContext; false when it answered the request itself
// (a proxy of the client's own, or parameters it cannot read).
func (f *Wall) guardsContext(l *relay.Line, msg *transport.Message, h *transport.Head) bool {
	server, bypass := f.w.Proxy()
	if server == "" {
		return true
	}
	top, params, err := readRequest(msg.B)
	if err != nil {
		f.invalid(l, h)
		return false
	}
	for _, key := range []string{"proxyServer", "proxyBypassList"} {
		var v string
		if raw, ok := params[key]; ok && (json.Unmarshal(raw, &v) != nil || v != "") {
			l.Answer(errorAnswer(h.ID, h.SessionID, codeServerError, fmt.Sprintf(errOwnProxy, f.w.Name())), nil)
			return false
		}
	}
	params["proxyServer"], _ = json.Marshal(server)
	params["proxyBypassList"], _ = json.Marshal(bypass)
	top["params"], _ = json.Marshal(params)
	rewritten, err := json.Marshal(top)
	if err != nil {
		f.invalid(l, h)
		return false
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return true
}

package relay

import (
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/transport"
)

// A world with a network policy has its context made with the world's
// guard as its proxy (actors/worlds). A context the world's client makes
// inside it (Playwright's newContext) gets the same proxy, put in by the
// relay; a client that names a proxy of its own is refused: no client of
// the world can lift its policy.

// errOwnProxy refuses a world's client a context with a proxy of its own
// (the world).
const errOwnProxy = "Target.createBrowserContext with proxyServer or proxyBypassList is refused in world %q: its network policy is enforced by its own proxy, which every context made in it gets; make the context without one"

// worldGuardsContext puts the world's guard into a client's
// Target.createBrowserContext; false when it answered the request itself
// (a proxy of the client's own, or parameters it cannot read).
func (run *relayRun) worldGuardsContext(msg *transport.Message, h *transport.Head) bool {
	server, bypass := run.world.w.Proxy()
	if server == "" {
		return true
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(msg.B, &top); err != nil {
		run.worldInvalid(msg, h)
		return false
	}
	params := map[string]json.RawMessage{}
	if raw, ok := top["params"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &params); err != nil {
			run.worldInvalid(msg, h)
			return false
		}
	}
	for _, key := range []string{"proxyServer", "proxyBypassList"} {
		var v string
		if raw, ok := params[key]; ok && (json.Unmarshal(raw, &v) != nil || v != "") {
			run.answerClient(errorAnswer(h.ID, h.SessionID, codeServerError, fmt.Sprintf(errOwnProxy, run.world.w.Name())))
			msg.Release()
			return false
		}
	}
	params["proxyServer"], _ = json.Marshal(server)
	params["proxyBypassList"], _ = json.Marshal(bypass)
	top["params"], _ = json.Marshal(params)
	rewritten, err := json.Marshal(top)
	if err != nil {
		run.worldInvalid(msg, h)
		return false
	}
	msg.B = append(msg.B[:0], rewritten...)
	*h, _ = transport.ScanHead(msg.B)
	return true
}

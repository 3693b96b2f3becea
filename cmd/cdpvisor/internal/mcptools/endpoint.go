package mcptools

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// An answer naming an instance's stable endpoint carries endpoint, ws and
// protocol always, and bidi_endpoint (the ws, the name wrap's placeholder
// has) for a Firefox instance, whose endpoint serves WebDriver BiDi and no
// CDP.

// bidiEndpoint is an answer's bidi_endpoint: the ws of a BiDi endpoint,
// "" (left out) for CDP.
func bidiEndpoint(ws string, p launch.Protocol) string {
	if p == launch.ProtocolBiDi {
		return ws
	}
	return ""
}

// servesText says in words what a client connects to.
func servesText(endpoint, ws string, p launch.Protocol) string {
	if p == launch.ProtocolBiDi {
		return fmt.Sprintf("its endpoint %s serves WebDriver BiDi (not CDP): connect a BiDi client to %s", endpoint, ws)
	}
	return fmt.Sprintf("its endpoint %s serves CDP (browser websocket %s)", endpoint, ws)
}

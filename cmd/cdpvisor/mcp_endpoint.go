package main

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// addEndpoint puts an instance's stable endpoint into a tool's answer:
// endpoint, ws and protocol always, and bidi_endpoint (the ws, the name
// wrap's placeholder has) for a Firefox instance, whose endpoint serves
// WebDriver BiDi and no CDP.
func addEndpoint(data map[string]any, endpoint, ws string, p launch.Protocol) {
	data["endpoint"], data["ws"], data["protocol"] = endpoint, ws, p
	if p == launch.ProtocolBiDi {
		data["bidi_endpoint"] = ws
	}
}

// servesText says in words what a client connects to.
func servesText(endpoint, ws string, p launch.Protocol) string {
	if p == launch.ProtocolBiDi {
		return fmt.Sprintf("its endpoint %s serves WebDriver BiDi (not CDP): connect a BiDi client to %s", endpoint, ws)
	}
	return fmt.Sprintf("its endpoint %s serves CDP (browser websocket %s)", endpoint, ws)
}

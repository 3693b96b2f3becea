package state

import (
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// bidiPath is where a Firefox endpoint serves WebDriver BiDi (proxy.BiDiPath,
// which this package cannot import).
const bidiPath = "/session"

// ProtocolOf is what an endpoint of a state file serves: its protocol
// field, else (coordinators from before it) what its ws URL says.
func ProtocolOf(protocol, ws string) chrome.Protocol {
	switch chrome.Protocol(protocol) {
	case chrome.ProtocolCDP, chrome.ProtocolBiDi:
		return chrome.Protocol(protocol)
	}
	if strings.HasSuffix(ws, bidiPath) {
		return chrome.ProtocolBiDi
	}
	return chrome.ProtocolCDP
}

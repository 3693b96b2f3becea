package state

import (
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// bidiPath is where a Firefox endpoint serves WebDriver BiDi (proxy.BiDiPath,
// which this package cannot import).
const bidiPath = "/session"

// ProtocolOf is what an endpoint of a state file serves: its protocol
// field, else (coordinators from before it) what its ws URL says.
func ProtocolOf(protocol, ws string) launch.Protocol {
	switch launch.Protocol(protocol) {
	case launch.ProtocolCDP, launch.ProtocolBiDi:
		return launch.Protocol(protocol)
	}
	if strings.HasSuffix(ws, bidiPath) {
		return launch.ProtocolBiDi
	}
	return launch.ProtocolCDP
}

package state

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

func TestProtocolOf(t *testing.T) {
	for _, c := range []struct {
		protocol, ws string
		want         launch.Protocol
	}{
		{"bidi", "ws://127.0.0.1:1/session", launch.ProtocolBiDi},
		{"cdp", "ws://127.0.0.1:1/devtools/browser", launch.ProtocolCDP},
		{"", "ws://127.0.0.1:1/session", launch.ProtocolBiDi},         // a coordinator from before the field
		{"", "ws://127.0.0.1:1/devtools/browser", launch.ProtocolCDP}, // likewise
		{"", "", launch.ProtocolCDP},
		{"webdriver", "ws://127.0.0.1:1/devtools/browser", launch.ProtocolCDP}, // unknown: the ws tells
	} {
		if got := ProtocolOf(c.protocol, c.ws); got != c.want {
			t.Errorf("ProtocolOf(%q, %q) = %s, want %s", c.protocol, c.ws, got, c.want)
		}
	}
}

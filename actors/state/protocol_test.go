package state

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

func TestProtocolOf(t *testing.T) {
	for _, c := range []struct {
		protocol, ws string
		want         chrome.Protocol
	}{
		{"bidi", "ws://127.0.0.1:1/session", chrome.ProtocolBiDi},
		{"cdp", "ws://127.0.0.1:1/devtools/browser", chrome.ProtocolCDP},
		{"", "ws://127.0.0.1:1/session", chrome.ProtocolBiDi},         // a coordinator from before the field
		{"", "ws://127.0.0.1:1/devtools/browser", chrome.ProtocolCDP}, // likewise
		{"", "", chrome.ProtocolCDP},
		{"webdriver", "ws://127.0.0.1:1/devtools/browser", chrome.ProtocolCDP}, // unknown: the ws tells
	} {
		if got := ProtocolOf(c.protocol, c.ws); got != c.want {
			t.Errorf("ProtocolOf(%q, %q) = %s, want %s", c.protocol, c.ws, got, c.want)
		}
	}
}

package launch

import (
	"fmt"
	"strings"
)

// Protocol is the automation protocol a browser speaks to its clients.
type Protocol string

const (
	ProtocolCDP  Protocol = "cdp"  // Chrome DevTools Protocol: the Chromium family
	ProtocolBiDi Protocol = "bidi" // WebDriver BiDi: Firefox (129 and later serves no CDP)
)

// Protocol says which protocol browsers of type t speak.
func (t Type) Protocol() Protocol {
	if t == Firefox {
		return ProtocolBiDi
	}
	return ProtocolCDP
}

// AliveRequest is a request the browser answers at once whatever else it
// does, as a format for its id (BiDi's needs no session): the hang probe's.
func (p Protocol) AliveRequest() string {
	if p == ProtocolBiDi {
		return `{"id":%d,"method":"session.status","params":{}}`
	}
	return `{"id":%d,"method":"Browser.getVersion"}`
}

// Protocol says which protocol b speaks.
func (b Browser) Protocol() Protocol { return b.Type.Protocol() }

// RequireCDP refuses a browser that does not speak CDP, for the places that
// can only drive the Chromium family (the bridge, the CDP launcher).
func RequireCDP(b Browser) error {
	if b.Protocol() == ProtocolCDP {
		return nil
	}
	return fmt.Errorf("%s (%s) speaks WebDriver BiDi, not CDP; here it takes one of %s",
		b.Name, b.Path, cdpTypeList())
}

// cdpTypeList names the types that speak CDP.
func cdpTypeList() string {
	var names []string
	for _, t := range Types {
		if t.Protocol() == ProtocolCDP {
			names = append(names, string(t))
		}
	}
	return strings.Join(names, ", ")
}

package browser

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// Firefox launches Firefox builds of this machine with their WebDriver
// BiDi server; Describe().WSURL is the BiDi socket.
func Firefox() Launcher { return firefox{sys: chrome.HostSystem()} }

type firefox struct{ sys chrome.System }

// Resolve finds a Firefox: "" is the preferred installed channel; a path
// or command must name a Firefox too.
func (f firefox) Resolve(want string) (chrome.Browser, error) {
	if want == "" {
		want = string(chrome.Firefox)
	}
	b, err := chrome.Resolve(f.sys, want)
	if err != nil {
		return b, err
	}
	if b.Protocol() != chrome.ProtocolBiDi {
		return b, fmt.Errorf("%s (%s) is not a Firefox; this instance launches Firefox over WebDriver BiDi", b.Name, b.Path)
	}
	return b, nil
}

func (firefox) Start(ctx context.Context, opts chrome.LaunchOptions, onStderr func(string)) (Process, error) {
	p, err := chrome.StartFirefox(ctx, opts, onStderr)
	if err != nil {
		return nil, err // not a nil *chrome.Process in a non-nil Process
	}
	return p, nil
}

package firefox

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Launcher launches the Firefox builds of the machine Sys describes with
// their WebDriver BiDi server; Describe().WSURL is the BiDi socket.
type Launcher struct{ Sys launch.System }

// Resolve finds a Firefox: "" is the preferred installed channel; a path
// or command must name a Firefox too.
func (l Launcher) Resolve(want string) (launch.Browser, error) {
	if want == "" {
		want = string(launch.Firefox)
	}
	b, err := detect.Resolve(l.Sys, want)
	if err != nil {
		return b, err
	}
	if b.Protocol() != launch.ProtocolBiDi {
		return b, fmt.Errorf("%s (%s) is not a Firefox; this instance launches Firefox over WebDriver BiDi", b.Name, b.Path)
	}
	return b, nil
}

func (Launcher) ProfileDir(p string) (string, error) { return launch.ProfileDir(p) }

func (Launcher) CheckArgs(args []string) error { return CheckArgs(args) }

func (Launcher) BrowsersOn(profile string) ([]launch.Found, error) {
	return launch.LocalBrowsersOn(profile)
}

func (Launcher) Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	return Start(ctx, opts, onStderr)
}

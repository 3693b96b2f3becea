package chromium

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Launcher launches the Chromium-family browsers of the machine Sys
// describes.
type Launcher struct{ Sys launch.System }

// Resolve refuses Firefox: this launcher waits for a DevTools endpoint.
func (l Launcher) Resolve(want string) (launch.Browser, error) {
	b, err := detect.Resolve(l.Sys, want)
	if err != nil {
		return b, err
	}
	return b, launch.RequireCDP(b)
}

func (Launcher) ProfileDir(p string) (string, error) { return launch.ProfileDir(p) }

func (Launcher) CheckArgs(args []string) error { return CheckExtraArgs(args) }

func (Launcher) BrowsersOn(profile string) ([]launch.Found, error) {
	return launch.LocalBrowsersOn(profile)
}

func (Launcher) Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	return StartOrAttach(ctx, opts, onStderr)
}

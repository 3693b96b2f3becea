package launch

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Launcher is one family's way to find, check and start its browsers
// (chromium, firefox, and windows for Windows browsers seen from WSL). A
// BrowserActor and the bridge ask it rather than branch on the family or on
// where the browser runs.
type Launcher interface {
	// Resolve finds a browser of the family by type (chrome, edge, …) or
	// path; "" is the first one detected.
	Resolve(want string) (Browser, error)
	// ProfileDir checks a --user-data-dir for a launch and returns it as
	// the launch takes it.
	ProfileDir(p string) (string, error)
	// CheckArgs refuses extra browser arguments that the launch sets itself.
	CheckArgs(args []string) error
	// BrowsersOn lists the main browser processes running on profile,
	// wherever this family's browsers run.
	BrowsersOn(profile string) ([]Found, error)
	// Start returns once the browser is ready (or attaches to one already
	// running on the profile); on failure nothing is left. onStderr sees
	// each stderr line.
	Start(ctx context.Context, opts Options, onStderr func(string)) (*Process, error)
}

// Found is a browser process found running on a profile.
type Found struct {
	Pid        int // its pid; 0 for a Windows browser seen from WSL
	WindowsPid int // a Windows browser's pid
	Args       []string
}

// LocalBrowsersOn is BrowsersOn for the families that run on this machine.
func LocalBrowsersOn(profile string) ([]Found, error) {
	procs, err := proc.BrowsersUnder(profile)
	var out []Found
	for _, p := range procs {
		out = append(out, Found{Pid: p.Pid, Args: p.Args})
	}
	return out, err
}

package browser

import (
	"context"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// Launcher is what a BrowserActor needs from a browser family: find an
// executable, and start one until it is ready (or attach to one already
// running on the profile). Chromium() and Firefox() are the two families.
type Launcher interface {
	// Resolve finds a browser by type (chrome, edge, …) or path; "" is the
	// first one detected.
	Resolve(want string) (chrome.Browser, error)
	// Start returns once the browser is ready; on failure nothing is left.
	// onStderr sees each stderr line.
	Start(ctx context.Context, opts chrome.LaunchOptions, onStderr func(string)) (Process, error)
}

// Process is one running browser, owned by the actor that started it,
// which calls Stop (or Detach) exactly once when it is done with it.
type Process interface {
	Describe() chrome.Facts
	// Identity tells this browser from a process that reuses its pid later.
	Identity() chrome.BrowserIdentity
	// Exited is closed when the process has exited (or, attached, stopped answering).
	Exited() <-chan struct{}
	// WaitExit reports whether it exits within d (0: has it exited).
	WaitExit(d time.Duration) bool
	ExitStatus() chrome.ExitStatus
	// Stop ends it (an attached one is only let go) and removes what its
	// launch created; Detach lets it outlive cdpvisor. Kill ends a launched
	// one's process group at once (a hung browser); Stop still follows.
	Stop() error
	Kill() error
	Detach()
}

// Chromium launches Chromium-family browsers of this machine.
func Chromium() Launcher { return chromium{sys: chrome.HostSystem()} }

type chromium struct{ sys chrome.System }

// Resolve refuses Firefox: this launcher waits for a DevTools endpoint.
func (c chromium) Resolve(want string) (chrome.Browser, error) {
	b, err := chrome.Resolve(c.sys, want)
	if err != nil {
		return b, err
	}
	return b, chrome.RequireCDP(b)
}

func (chromium) Start(ctx context.Context, opts chrome.LaunchOptions, onStderr func(string)) (Process, error) {
	p, err := chrome.StartOrAttach(ctx, opts, onStderr)
	if err != nil {
		return nil, err // not a nil *chrome.Process in a non-nil Process
	}
	return p, nil
}

// AnyFamily resolves a browser of either family, for an instance not yet
// created: its launcher follows from what was resolved (LauncherFor).
// preferWindows is serve's --windows: inside WSL, a browser type (and the
// default) names the Windows install first.
func AnyFamily(preferWindows bool) Resolver {
	sys := chrome.HostSystem()
	sys.PreferWindows = sys.PreferWindows || preferWindows
	return anyFamily{sys: sys}
}

type anyFamily struct{ sys chrome.System }

func (a anyFamily) Resolve(want string) (chrome.Browser, error) { return chrome.Resolve(a.sys, want) }

// LauncherFor is the launcher of b's family.
func LauncherFor(b chrome.Browser) Launcher {
	if b.Windows {
		return Windows()
	}
	if b.Protocol() == chrome.ProtocolBiDi {
		return Firefox()
	}
	return Chromium()
}

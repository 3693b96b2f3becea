package windows

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Launcher launches Windows browsers from inside WSL: through
// powershell.exe, on a temporary profile in the Windows user's %TEMP%,
// reached on 127.0.0.1 (mirrored networking) or through the helpers (NAT).
type Launcher struct{ Sys launch.System }

// NewLauncher is the Windows launcher of sys: its browser types name the
// Windows installs.
func NewLauncher(sys launch.System) Launcher {
	sys.PreferWindows = true
	return Launcher{Sys: sys}
}

// Resolve finds a Windows Chromium-family browser.
func (l Launcher) Resolve(want string) (launch.Browser, error) {
	b, err := detect.Resolve(l.Sys, want)
	if err != nil {
		return b, err
	}
	if !b.Windows {
		return b, fmt.Errorf("%s (%s) is not a Windows browser; this instance launches Windows browsers from WSL", b.Name, b.Path)
	}
	return b, launch.RequireCDP(b)
}

// ProfileDir takes a Windows path (C:\…) through its drive mount.
func (l Launcher) ProfileDir(p string) (string, error) { return ProfileDir(l.Sys, p) }

func (Launcher) CheckArgs(args []string) error { return chromium.CheckExtraArgs(args) }

// BrowsersOn asks Windows, through powershell.exe, for its browsers on profile.
func (l Launcher) BrowsersOn(profile string) ([]launch.Found, error) {
	found, err := BrowsersOn(l.Sys, profile)
	var out []launch.Found
	for _, b := range found {
		out = append(out, launch.Found{WindowsPid: b.ProcessId, Args: b.Args})
	}
	return out, err
}

func (l Launcher) Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	return StartOrAttach(ctx, l.Sys, opts, onStderr)
}

package browser

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// Windows launches Windows browsers from inside WSL: through powershell.exe,
// on a temporary profile in the Windows user's %TEMP%, reached on
// 127.0.0.1 (WSL's mirrored networking).
func Windows() Launcher {
	sys := chrome.HostSystem()
	sys.PreferWindows = true
	return windows{sys: sys}
}

type windows struct{ sys chrome.System }

// Resolve finds a Windows Chromium-family browser.
func (w windows) Resolve(want string) (chrome.Browser, error) {
	b, err := chrome.Resolve(w.sys, want)
	if err != nil {
		return b, err
	}
	if !b.Windows {
		return b, fmt.Errorf("%s (%s) is not a Windows browser; this instance launches Windows browsers from WSL", b.Name, b.Path)
	}
	return b, chrome.RequireCDP(b)
}

func (w windows) Start(ctx context.Context, opts chrome.LaunchOptions, onStderr func(string)) (Process, error) {
	p, err := chrome.StartOrAttachWindows(ctx, w.sys, opts, onStderr)
	if err != nil {
		return nil, err // not a nil *chrome.WindowsProcess in a non-nil Process
	}
	return p, nil
}

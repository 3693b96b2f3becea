// Package launchers picks a browser's family launcher: the one place that
// knows the families apart, so that nothing above it branches on them.
package launchers

import (
	"fmt"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/firefox"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
)

// For is the launcher of b's family on sys.
func For(sys launch.System, b launch.Browser) launch.Launcher {
	switch {
	case b.Windows:
		return windows.NewLauncher(sys)
	case b.Protocol() == launch.ProtocolBiDi:
		return firefox.Launcher{Sys: sys}
	}
	return chromium.Launcher{Sys: sys}
}

// Any resolves a browser of any family, for an instance not yet created:
// its launcher follows from what was resolved (For).
type Any struct{ Sys launch.System }

func (a Any) Resolve(want string) (launch.Browser, error) { return detect.Resolve(a.Sys, want) }

// For is the launcher of b's family.
func (a Any) For(b launch.Browser) launch.Launcher { return For(a.Sys, b) }

// UsersBrowser is the launcher of the user's own browser b, running on
// profile ("": b's default profile), and that profile, absolute: it attaches
// to the browser, never launches or stops it. Only a Chromium-family
// browser can be attached to so; a Windows one from inside WSL is reached
// on 127.0.0.1, which WSL's mirrored networking shares.
func UsersBrowser(sys launch.System, b launch.Browser, profile string) (launch.Launcher, string, error) {
	var err error
	if profile == "" {
		profile, err = detect.DefaultProfile(sys, b)
	} else {
		profile, err = filepath.Abs(profile)
	}
	if err != nil {
		return nil, "", err
	}
	if b.Protocol() != launch.ProtocolCDP {
		return nil, "", fmt.Errorf("attaching to the user's own browser needs a Chromium-family browser (Chrome, Edge, Chromium, Brave), not %s", b.Type.Product())
	}
	return chromium.UsersBrowser{Launcher: chromium.Launcher{Sys: sys}, Profile: profile}, profile, nil
}

package browser

import (
	"errors"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// Change says what a launch changes; nil fields keep the options the
// browser was last launched with (or last asked for, when a launch is
// still pending).
type Change struct {
	Browser     *string // a type or a path
	Headless    *bool
	UserDataDir *string // "" = a fresh temporary profile
	Args        []string
}

// Resolver finds a browser by type or path (a Launcher, or AnyFamily).
type Resolver interface {
	Resolve(want string) (chrome.Browser, error)
}

// Apply returns opts with the change made, resolving a browser name.
func (ch Change) Apply(opts chrome.LaunchOptions, r Resolver) (chrome.LaunchOptions, error) {
	if ch.Browser != nil {
		b, err := r.Resolve(*ch.Browser)
		if err != nil {
			return opts, err
		}
		opts.Browser = b
	}
	if ch.Headless != nil {
		opts.Headless = *ch.Headless
	}
	if ch.UserDataDir != nil {
		opts.UserDataDir = *ch.UserDataDir
		if opts.UserDataDir != "" {
			profileDir := chrome.ProfileDir
			if opts.Browser.Windows { // a C:\ path, through the drive mount
				profileDir = func(p string) (string, error) { return chrome.WindowsProfileDir(chrome.HostSystem(), p) }
			}
			dir, err := profileDir(opts.UserDataDir)
			if err != nil {
				return opts, err
			}
			opts.UserDataDir = dir
		}
	}
	if ch.Args != nil {
		check := chrome.CheckExtraArgs
		if opts.Browser.Protocol() == chrome.ProtocolBiDi {
			check = chrome.CheckFirefoxArgs // Firefox's flags, its own owned ones
		}
		if err := check(ch.Args); err != nil {
			return opts, err
		}
		opts.ExtraArgs = ch.Args
	}
	return opts, nil
}

// RestartGuard is how young a healthy browser must be for a restart to be
// refused without force: agents tend to restart at the first error.
const RestartGuard = 5 * time.Second

// ErrRestartRefused is the lifecycle-thrash guard's answer.
var ErrRestartRefused = errors.New("restart refused")

func restartRefused(gen int, pid string, age time.Duration) error {
	return fmt.Errorf("%w: the browser (generation %d, %s) started %s ago and is running; "+
		"a restart this soon rarely fixes an error (lifecycle thrash). Retry the failing call first, "+
		"or call coordinator_restart_browser with force: true", ErrRestartRefused, gen, pid, age.Round(100*time.Millisecond))
}

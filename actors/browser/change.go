package browser

import (
	"errors"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
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

// Resolver finds a browser by type or path, and the launcher that checks
// what a launch of it is given: an instance's own launcher (OwnLauncher),
// or launchers.Any for an instance not yet created.
type Resolver interface {
	Resolve(want string) (launch.Browser, error)
	For(b launch.Browser) launch.Launcher
}

// OwnLauncher is the Resolver of an instance whose family is l's.
type OwnLauncher struct{ launch.Launcher }

// For is l, whatever b is: Resolve found b through l.
func (o OwnLauncher) For(launch.Browser) launch.Launcher { return o.Launcher }

// Apply returns opts with the change made, resolving a browser name.
func (ch Change) Apply(opts launch.Options, r Resolver) (launch.Options, error) {
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
	l := r.For(opts.Browser)
	if ch.UserDataDir != nil {
		opts.UserDataDir = *ch.UserDataDir
		if opts.UserDataDir != "" {
			dir, err := l.ProfileDir(opts.UserDataDir)
			if err != nil {
				return opts, err
			}
			opts.UserDataDir = dir
		}
	}
	if ch.Args != nil {
		if err := l.CheckArgs(ch.Args); err != nil {
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

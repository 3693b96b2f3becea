package launch

import (
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// Cause classifies why a browser failed to start, so a user (or an agent)
// is told what to do rather than handed a raw exit status.
type Cause string

const (
	CauseNotFound       Cause = "not_found"        // the executable does not exist or cannot run
	CauseExitedEarly    Cause = "exited_early"     // it exited before it was ready
	CauseTimedOut       Cause = "timed_out"        // no readiness line (or, Chromium, /json/version answer) in time
	CauseProfileInUse   Cause = "profile_in_use"   // another browser holds the --user-data-dir
	CauseRootNoSandbox  Cause = "root_no_sandbox"  // running as root without --no-sandbox
	CauseNoDisplay      Cause = "no_display"       // headed launch without an X server
	CauseSocketPathLong Cause = "socket_path_long" // $TMPDIR too long for Chromium's sockets
	CauseCancelled      Cause = "cancelled"        // the launch was called off (stop or shutdown)
	CauseUnreachable    Cause = "unreachable"      // a Windows browser's port is not reachable from WSL (NAT networking)
)

// Error is a failed start: its cause, the exit code when it exited,
// and the last lines the browser wrote to stderr.
type Error struct {
	Cause    Cause
	Path     string
	ExitCode int // -1 when it did not exit by itself
	Stderr   []string
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "browser %s failed to start: %s", e.Path, e.what())
	if e.Err != nil {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	if len(e.Stderr) > 0 {
		b.WriteString("; last stderr lines:\n  ")
		b.WriteString(strings.Join(e.Stderr, "\n  "))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Crashed says the browser died of a signal while it started: nothing the
// user set says the next start fails too.
func (e *Error) Crashed() bool { return e.Cause == CauseExitedEarly && e.ExitCode < 0 }

// Remedies are what the user can change, by cause; the edges word them.
func (e *Error) Remedies() []remedy.Fix {
	switch e.Cause {
	case CauseNotFound:
		return []remedy.Fix{remedy.Change(remedy.Browser), {Do: remedy.ListBrowsers}}
	case CauseProfileInUse:
		return []remedy.Fix{remedy.Say("close that browser"), remedy.Change(remedy.UserDataDir)}
	case CauseRootNoSandbox:
		return []remedy.Fix{{Do: remedy.AddArg, Value: "--no-sandbox"}}
	case CauseNoDisplay:
		return []remedy.Fix{remedy.Set(remedy.Headless, "true"), remedy.Say("set $DISPLAY")}
	case CauseSocketPathLong:
		return []remedy.Fix{remedy.Say("set TMPDIR to a short directory such as /tmp")}
	}
	return nil
}

// what says what happened, by cause.
func (e *Error) what() string {
	switch e.Cause {
	case CauseNotFound:
		return "the executable was not found or is not executable"
	case CauseExitedEarly:
		return fmt.Sprintf("it exited with code %d before it was ready", e.ExitCode)
	case CauseTimedOut:
		return "it did not become ready in time"
	case CauseProfileInUse:
		return "the profile is in use by another browser process"
	case CauseRootNoSandbox:
		return "running as root requires Chromium's --no-sandbox switch"
	case CauseNoDisplay:
		return "a headed browser needs a display"
	case CauseSocketPathLong:
		return "$TMPDIR is too long for Chromium's socket paths"
	case CauseCancelled:
		return "the launch was cancelled"
	case CauseUnreachable:
		return "WSL cannot reach the Windows browser's debugging port on 127.0.0.1"
	}
	return string(e.Cause)
}

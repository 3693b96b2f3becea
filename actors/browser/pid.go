package browser

import (
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/rs/zerolog"
)

// PidText names the browser's process for messages: "pid N", or
// "Windows pid N" for a Windows browser (which has no Linux pid).
func PidText(pid, windowsPid int) string {
	if windowsPid != 0 {
		return fmt.Sprintf("Windows pid %d", windowsPid)
	}
	return fmt.Sprintf("pid %d", pid)
}

// PidText names the browser's process: "pid N" or "Windows pid N".
func (e Endpoint) PidText() string { return PidText(e.Pid, e.WindowsPid) }

// Running reports whether the status is of a running process (its pid is
// known, Linux or Windows).
func (s Status) Running() bool { return s.StartedAt != nil && (s.Pid != 0 || s.WindowsPid != 0) }

// PidText names the browser's process: "pid N" or "Windows pid N".
func (s Status) PidText() string { return PidText(s.Pid, s.WindowsPid) }

// pidFields logs the browser's process: pid, or windowsPid (and how its
// port is reached) for a Windows browser, which has no Linux pid.
func pidFields(ev *zerolog.Event, f launch.Facts) *zerolog.Event {
	if f.WindowsPid != 0 {
		return ev.Int("windowsPid", f.WindowsPid).Str("reach", launch.ReachName(f.Reach))
	}
	return ev.Int("pid", f.Pid)
}

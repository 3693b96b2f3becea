package chrome

import "fmt"

// ExitStatus is how a browser process ended.
type ExitStatus struct {
	Code   int    // its exit code; -1 when a signal ended it or it is unknown
	Signal string // the signal that ended it ("SIGKILL"), "" otherwise
}

func (s ExitStatus) String() string {
	switch {
	case s.Signal != "":
		return "killed by " + s.Signal
	case s.Code >= 0:
		return fmt.Sprintf("exited with code %d", s.Code)
	}
	return "ended"
}

// ExitStatus says how the process ended; valid once Exited is closed. An
// attached browser's end is not known beyond "it stopped answering".
func (p *Process) ExitStatus() ExitStatus {
	if p.Attached || p.cmd == nil || p.cmd.ProcessState == nil {
		return ExitStatus{Code: -1}
	}
	return exitStatusOf(p.cmd.ProcessState)
}

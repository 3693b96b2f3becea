package proc

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

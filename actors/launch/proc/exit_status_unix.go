//go:build !windows

package proc

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

func ExitStatusOf(ps *os.ProcessState) ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		name := unix.SignalName(ws.Signal())
		if name == "" {
			name = ws.Signal().String()
		}
		return ExitStatus{Code: -1, Signal: name}
	}
	return ExitStatus{Code: ps.ExitCode()}
}

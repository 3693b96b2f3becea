//go:build !windows

package wrapenv

import (
	"os"
	"syscall"
)

// Signals are the signals wrap passes on to its child.
var Signals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// forwardSignal passes sig on to the child.
func forwardSignal(p *os.Process, sig os.Signal) error { return p.Signal(sig) }

// SignalExitCode is the shell's code for dying of sig: 128+N.
func SignalExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// childExitCode is the child's exit code, or 128+N when signal N ended it.
func childExitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

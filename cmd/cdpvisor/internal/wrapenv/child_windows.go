//go:build windows

package wrapenv

import (
	"os"
)

// Signals are the signals wrap catches; Windows delivers a console
// Ctrl-C to every process on the console, the child included, so wrap only
// has to survive it and wait for the child.
var Signals = []os.Signal{os.Interrupt}

// forwardSignal does nothing: the console already delivered the interrupt
// to the child, and Windows cannot send it to one process.
func forwardSignal(p *os.Process, sig os.Signal) error { return nil }

// SignalExitCode is the conventional code for an interrupt.
func SignalExitCode(sig os.Signal) int { return 128 + 2 }

// childExitCode is the child's exit code.
func childExitCode(ps *os.ProcessState) int { return ps.ExitCode() }

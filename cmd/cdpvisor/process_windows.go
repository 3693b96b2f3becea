//go:build windows

package main

import (
	"os"
	"syscall"
)

// wrapSignals are the signals wrap catches; Windows delivers a console
// Ctrl-C to every process on the console, the child included, so wrap only
// has to survive it and wait for the child.
var wrapSignals = []os.Signal{os.Interrupt}

const (
	processQueryLimitedInformation = 0x1000
	stillActive                    = 259
)

// processAlive reports whether pid names a running process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		// Access denied means it exists but belongs to someone else.
		return err == syscall.ERROR_ACCESS_DENIED
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}

// forwardSignal does nothing: the console already delivered the interrupt
// to the child, and Windows cannot send it to one process.
func forwardSignal(p *os.Process, sig os.Signal) error { return nil }

// signalExitCode is the conventional code for an interrupt.
func signalExitCode(sig os.Signal) int { return 128 + 2 }

// childExitCode is the child's exit code.
func childExitCode(ps *os.ProcessState) int { return ps.ExitCode() }

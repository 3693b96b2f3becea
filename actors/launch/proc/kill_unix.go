//go:build !windows

package proc

import "syscall"

// Kill ends one process at once (SIGKILL).
func Kill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

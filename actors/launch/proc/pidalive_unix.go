//go:build !windows

package proc

import (
	"errors"
	"syscall"
)

// PidAlive reports whether a process with this pid exists (possibly another
// user's).
func PidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

//go:build !linux && !windows

package chrome

import "syscall"

// groupAlive reports whether any process is still in the group pgid.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

//go:build !linux && !windows

package proc

import "syscall"

// GroupAlive reports whether any process is still in the group pgid.
func GroupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

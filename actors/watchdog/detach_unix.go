//go:build !windows

package watchdog

import "syscall"

// detachedProcAttr puts a watchdog in its own session: no signal to the
// coordinator's group or terminal reaches it.
func detachedProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

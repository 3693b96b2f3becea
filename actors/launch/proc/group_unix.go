//go:build !windows

package proc

import "syscall"

// GroupProcAttr puts the browser in its own process group, so stopping it
// reaches its helpers too and a terminal's Ctrl-C does not.
func GroupProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// SignalGroup sends SIGTERM, or SIGKILL when force, to the group led by pid.
func SignalGroup(pid int, force bool) error {
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-pid, sig)
}

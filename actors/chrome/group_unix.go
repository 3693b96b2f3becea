//go:build !windows

package chrome

import "syscall"

// groupProcAttr puts the browser in its own process group, so stopping it
// reaches its helpers too and a terminal's Ctrl-C does not.
func groupProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// endGroup sends SIGTERM, or SIGKILL when force, to the group led by pid.
func endGroup(pid int, force bool) error {
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-pid, sig)
}

package chrome

import (
	"os/exec"
	"strconv"
	"syscall"
)

// groupProcAttr starts the browser in a new process group, away from the
// console's Ctrl-C.
func groupProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// endGroup ends the browser's process tree: politely first, then by force.
func endGroup(pid int, force bool) error {
	args := []string{"/T", "/PID", strconv.Itoa(pid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	return exec.Command("taskkill", args...).Run()
}

// groupAlive: Windows has no process groups to poll; taskkill /T already
// ended the tree.
func groupAlive(int) bool { return false }

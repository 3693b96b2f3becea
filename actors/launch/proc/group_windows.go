package proc

import (
	"os/exec"
	"strconv"
	"syscall"
)

// GroupProcAttr starts the browser in a new process group, away from the
// console's Ctrl-C.
func GroupProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// SignalGroup ends the browser's process tree: politely first, then by force.
func SignalGroup(pid int, force bool) error {
	args := []string{"/T", "/PID", strconv.Itoa(pid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	return exec.Command("taskkill", args...).Run()
}

// GroupAlive: Windows has no process groups to poll; taskkill /T already
// ended the tree.
func GroupAlive(int) bool { return false }

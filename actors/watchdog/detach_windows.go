package watchdog

import "syscall"

const detachedProcess = 0x00000008 // DETACHED_PROCESS

// detachedProcAttr starts a watchdog without a console, in its own group.
func detachedProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

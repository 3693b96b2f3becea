package proc

import "syscall"

const (
	processQueryLimitedInformation = 0x1000
	stillActive                    = 259
)

// PidAlive reports whether pid names a running process (possibly another
// user's). An exited process whose handle someone still holds is not alive.
func PidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		// Access denied means it exists but belongs to someone else.
		return err == syscall.ERROR_ACCESS_DENIED
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}

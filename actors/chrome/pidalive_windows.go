package chrome

import "os"

// PidAlive reports whether a process with this pid exists.
func PidAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid) // opens the process: fails when there is none
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

//go:build !linux

package chrome

// GroupRSS needs the process table's memory figures, read on Linux only.
func GroupRSS(int) (int64, error) { return 0, ErrNoProcessTable }

//go:build !linux

package proc

// GroupRSS needs the process table's memory figures, read on Linux only.
func GroupRSS(int) (int64, error) { return 0, ErrNoProcessTable }

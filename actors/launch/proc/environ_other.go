//go:build !linux

package proc

// WithEnv needs another process's environment, which only Linux gives
// (/proc/PID/environ); elsewhere launches are found by their command line.
func WithEnv(name, value string) ([]int, error) { return nil, ErrNoProcessTable }

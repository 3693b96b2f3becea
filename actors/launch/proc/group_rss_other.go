//go:build !linux

package proc

import "time"

// GroupRSS needs the process table's memory figures, read on Linux only.
func GroupRSS(int) (int64, error) { return 0, ErrNoProcessTable }

// GroupCPU needs the process table's times, read on Linux only.
func GroupCPU(int) (time.Duration, error) { return 0, ErrNoProcessTable }

// GroupPSS needs the process table's memory figures, read on Linux only.
func GroupPSS(int) (int64, error) { return 0, ErrNoProcessTable }

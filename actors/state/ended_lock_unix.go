//go:build !windows

package state

import (
	"os"
	"syscall"
)

// lockDir holds an exclusive lock on the directory itself until unlock:
// flock(2), which the kernel drops if the holder dies, and no lock file
// left behind.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the last descriptor unlocks
}

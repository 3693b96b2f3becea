//go:build !windows

package actors

import (
	"syscall"
	"testing"
)

func killPid(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

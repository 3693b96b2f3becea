//go:build !windows

package main

import (
	"errors"
	"syscall"
)

// groupAttr puts a child in its own process group, so it and everything
// it starts can be ended together.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group led by pid.
func killGroup(pid int) error { return ignoreGone(syscall.Kill(-pid, syscall.SIGKILL)) }

// terminate asks pid alone to stop (SIGTERM).
func terminate(pid int) error { return ignoreGone(syscall.Kill(pid, syscall.SIGTERM)) }

// killPid is kill -9 of pid alone.
func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// groupAlive tells whether any process of the group led by pid remains.
func groupAlive(pid int) bool { return syscall.Kill(-pid, 0) == nil }

func ignoreGone(err error) error {
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

//go:build windows

package main

import (
	"os"
	"syscall"
)

func groupAttr() *syscall.SysProcAttr { return nil }

func killGroup(pid int) error { return killPid(pid) }

func terminate(pid int) error { return killPid(pid) }

func killPid(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

func groupAlive(pid int) bool { return false }

//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// processesWithEnvPrefix lists the pids whose environment has an entry
// starting with prefix (a browser's CDPVISOR_LAUNCH_DIR names its launch).
func processesWithEnvPrefix(prefix string) []int {
	want := []byte(prefix)
	return processesWithEnvEntry(func(e []byte) bool { return bytes.HasPrefix(e, want) })
}

// commandOf is pid's command line, "" when it is gone.
func commandOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// procCounts reads a process's threads and open fds.
func procCounts(pid int) (threads, fds int) {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Threads:"); ok {
				threads, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
	}
	if ents, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd"); err == nil {
		fds = len(ents)
	}
	return threads, fds
}

func stopPid(pid int) error { return syscall.Kill(pid, syscall.SIGSTOP) }
func contPid(pid int) error { return syscall.Kill(pid, syscall.SIGCONT) }

// groupSize is how many processes are in process group pgid (a browser
// and its helpers: its zygotes' children do not show its environment).
func groupSize(pgid int) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	n := 0
	for _, p := range stats {
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if pgidOf(pid) == pgid {
			n++
		}
	}
	return n
}

// pgidOf is pid's process group, -1 when it is gone.
func pgidOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// The fields after the command name, which may hold spaces: state ppid pgrp.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 {
		return -1
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return -1
	}
	return g
}

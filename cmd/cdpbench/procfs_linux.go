//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// procMem is a process's resident memory from /proc/<pid>/status, in kB.
type procMem struct {
	RSSkB int64 `json:"rss_kb"` // VmRSS: resident now
	HWMkB int64 `json:"hwm_kb"` // VmHWM: peak resident since start
}

func readProcMem(pid int) (procMem, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procMem{}, err
	}
	return parseProcStatus(b)
}

// parseProcStatus reads VmRSS and VmHWM out of a /proc/<pid>/status text.
func parseProcStatus(b []byte) (procMem, error) {
	var m procMem
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return m, fmt.Errorf("%s: %w", k, err)
		}
		if k == "VmRSS" {
			m.RSSkB = n
		} else {
			m.HWMkB = n
		}
		found++
	}
	if found < 2 {
		return m, fmt.Errorf("no VmRSS/VmHWM in status")
	}
	return m, nil
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// memTotalMB is MemTotal of /proc/meminfo.
func memTotalMB() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == "MemTotal" {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n / 1024
			}
		}
	}
	return 0
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// processesMatching lists the pids whose command line contains every one
// of words (to find cdpvisor's watchdogs; the bench started their parent).
func processesMatching(words ...string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		cmd := string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		all := true
		for _, w := range words {
			if !strings.Contains(cmd, w) {
				all = false
				break
			}
		}
		if all {
			pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
			if err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// loadAvg is the first three fields of /proc/loadavg ("1.02 0.87 0.60").
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

const haveProcfs = true

// procCPUSeconds is pid's own user+system time (not its children's), from
// /proc/<pid>/stat in clock ticks of 1/100 s (USER_HZ on Linux).
func procCPUSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which may hold spaces: state is
	// the first, utime the 12th, stime the 13th.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return float64(u+s) / 100, nil
}

package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// ProcessInfo reads one process from /proc.
func ProcessInfo(pid int) (ProcInfo, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	raw, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return ProcInfo{}, err
	}
	if len(raw) == 0 { // a zombie or a kernel thread
		return ProcInfo{}, os.ErrNotExist
	}
	exe, _ := os.Readlink(dir + "/exe")
	exe = strings.TrimSuffix(exe, " (deleted)")
	args := strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
	return ProcInfo{Pid: pid, Exe: exe, Args: args}, nil
}

// Processes lists every readable process.
func Processes() ([]ProcInfo, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []ProcInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if info, err := ProcessInfo(pid); err == nil {
			out = append(out, info)
		}
	}
	return out, nil
}

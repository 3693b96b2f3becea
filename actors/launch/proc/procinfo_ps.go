//go:build !linux && !windows

package proc

import (
	"bufio"
	"bytes"
	"os/exec"
	"strconv"
	"strings"
)

// ProcessInfo asks ps about one process. Arguments are split on spaces, so
// a profile path with spaces does not match: the safe direction for a
// check that decides whether to kill.
func ProcessInfo(pid int) (ProcInfo, error) {
	out, err := exec.Command("ps", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return ProcInfo{}, err
	}
	args := strings.Fields(string(bytes.TrimSpace(out)))
	if len(args) == 0 {
		return ProcInfo{}, ErrNoProcessTable
	}
	return ProcInfo{Pid: pid, Exe: args[0], Args: args}, nil
}

// Processes lists every process ps shows.
func Processes() ([]ProcInfo, error) {
	out, err := exec.Command("ps", "-axo", "pid=,command=").Output()
	if err != nil {
		return nil, err
	}
	var list []ProcInfo
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		list = append(list, ProcInfo{Pid: pid, Exe: f[1], Args: f[1:]})
	}
	return list, nil
}

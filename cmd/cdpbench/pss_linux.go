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

const havePSS = true

// procTable is pid → ppid of every process now, from /proc/*/stat.
func procTable() (map[int]int, error) {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return nil, err
	}
	out := make(map[int]int, len(dirs))
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		if ppid, ok := parseStatPPID(b); ok {
			out[pid] = ppid
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no process in /proc")
	}
	return out, nil
}

// parseStatPPID reads the ppid out of a /proc/<pid>/stat line,
// "pid (comm) state ppid …"; comm may hold spaces and parentheses, so the
// fields are counted from the last ')'.
func parseStatPPID(b []byte) (int, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// readRollup is /proc/<pid>/smaps_rollup.
func readRollup(pid int) (rollup, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return rollup{}, err
	}
	return parseRollup(b)
}

// parseRollup reads the kB fields of a smaps_rollup text.
func parseRollup(b []byte) (rollup, error) {
	var r rollup
	fields := map[string]*int64{
		"Rss": &r.RSSkB, "Pss": &r.PSSkB, "Pss_Anon": &r.PSSAnonkB, "Pss_File": &r.PSSFilekB,
		"Pss_Shmem": &r.PSSShmemkB, "Private_Clean": &r.PrivCleankB, "Private_Dirty": &r.PrivDirtykB,
	}
	found := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		p, want := fields[k]
		if !ok || !want {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return r, fmt.Errorf("smaps_rollup %s: %w", k, err)
		}
		*p = n
		found[k] = true
	}
	if !found["Rss"] || !found["Pss"] {
		return r, fmt.Errorf("no Rss/Pss in smaps_rollup")
	}
	return r, nil
}

// cmdlineOf is the argv of pid (nil when it is gone).
func cmdlineOf(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// exeOf is where /proc/<pid>/exe points ("" when unreadable).
func exeOf(pid int) string {
	p, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return ""
	}
	return p
}

// processesWithEnv lists the pids whose environment holds the entry kv
// ("NAME=value"): everything started under a tagged cdpvisor, including
// the helpers Chromium detaches from its tree (the crash handlers).
func processesWithEnv(kv string) []int {
	want := []byte(kv)
	return processesWithEnvEntry(func(e []byte) bool { return bytes.Equal(e, want) })
}

// processesWithEnvEntry lists the pids whose environment has an entry
// that match says is the one.
func processesWithEnvEntry(match func(entry []byte) bool) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		for _, e := range bytes.Split(b, []byte{0}) {
			if match(e) {
				if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d))); err == nil {
					out = append(out, pid)
				}
				break
			}
		}
	}
	return out
}

// pidsWithExe lists the pids running the executable exe.
func pidsWithExe(exe string) []int {
	if exe == "" {
		return nil
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if exeOf(pid) == exe {
			out = append(out, pid)
		}
	}
	return out
}

// uniqueFileKB is the resident file-backed memory of pids counted once:
// the distinct physical pages (from /proc/<pid>/pagemap, which gives page
// frame numbers to root) of their mappings of regular files. Pss_File
// splits a page among every process mapping it, on the whole machine, so
// another browser of the same executable takes part of it; this does not.
// Shared memory (/dev/shm, memfd, SysV) is left out, as it is of Pss_File,
// and so are the written (copied, anonymous) pages of private mappings.
// ok is false when the page frames cannot be read (not root).
func uniqueFileKB(pids []int) (kb int64, ok bool) {
	frames := map[uint64]struct{}{}
	pageSize := uint64(os.Getpagesize())
	sawFrame := false
	for _, pid := range pids {
		maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
		if err != nil {
			continue
		}
		pm, err := os.Open(fmt.Sprintf("/proc/%d/pagemap", pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(maps), "\n") {
			start, end, ok := fileMapping(line)
			if !ok {
				continue
			}
			n := (end - start) / pageSize
			buf := make([]byte, 8*n)
			if _, err := pm.ReadAt(buf, int64(start/pageSize*8)); err != nil {
				continue
			}
			for i := uint64(0); i < n; i++ {
				e := uint64(buf[8*i]) | uint64(buf[8*i+1])<<8 | uint64(buf[8*i+2])<<16 | uint64(buf[8*i+3])<<24 |
					uint64(buf[8*i+4])<<32 | uint64(buf[8*i+5])<<40 | uint64(buf[8*i+6])<<48 | uint64(buf[8*i+7])<<56
				// present (bit 63) and a page of the file (bit 61): a
				// private mapping's written page is anonymous, in Pss_Anon
				if e>>63 == 0 || e>>61&1 == 0 {
					continue
				}
				pfn := e & (1<<55 - 1)
				if pfn == 0 {
					continue
				}
				sawFrame = true
				frames[pfn] = struct{}{}
			}
		}
		pm.Close()
	}
	return int64(len(frames)) * int64(pageSize) / 1024, sawFrame
}

// fileMapping reads a /proc/<pid>/maps line and tells whether it maps a
// regular file (not shared memory, not a device), and where.
func fileMapping(line string) (start, end uint64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 6 || f[4] == "0" {
		return 0, 0, false
	}
	path := strings.Join(f[5:], " ")
	for _, p := range []string{"/dev/", "/memfd:", "/SYSV", "/anon_hugepage"} {
		if strings.HasPrefix(path, p) {
			return 0, 0, false
		}
	}
	if !strings.HasPrefix(path, "/") {
		return 0, 0, false
	}
	a, b, found := strings.Cut(f[0], "-")
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(a, 16, 64)
	e, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil || e <= s {
		return 0, 0, false
	}
	return s, e, true
}

// Package actortest holds what tests across cdpvisor share: the fake
// browser, real Chromium and npm clients, and the leak check that every
// package with processes runs around its tests.
package actortest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// markerVar is set in the test process's environment; every process it
// starts (cdpvisor, browsers, their helpers) inherits it, so leftovers are
// found by their environment even after they were reparented.
const markerVar = "CDPVISOR_TEST_RUN"

// LeakCheckMain runs a package's tests in an isolated $TMPDIR (so temporary
// profiles and state files of this package are easy to find) and fails the
// run when a process it started, a temporary profile or a state file is
// still there afterwards. Use it as: func TestMain(m *testing.M) { os.Exit(actortest.LeakCheckMain(m)) }
func LeakCheckMain(m *testing.M) int {
	var b [6]byte
	_, _ = rand.Read(b[:])
	marker := hex.EncodeToString(b[:])
	// Short on purpose: Chromium fails when $TMPDIR is longer than ~60 bytes.
	tmp, err := os.MkdirTemp("/tmp", "cdpvt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "leak check:", err)
		return 1
	}
	os.Setenv("TMPDIR", tmp)
	// Downloads by default go to the user's download directory: never in tests.
	os.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(tmp, "downloads"))
	os.Setenv(markerVar, marker)
	code := m.Run()
	if leaks := findLeaks(marker, tmp); len(leaks) > 0 {
		fmt.Fprintln(os.Stderr, "LEAK CHECK FAILED: left behind after the tests:\n  "+strings.Join(leaks, "\n  "))
		code = 1
	}
	os.RemoveAll(tmp)
	return code
}

// findLeaks waits briefly for marked processes to go, then reports (and
// kills) those that remain, and lists leftover profiles and state files.
func findLeaks(marker, tmp string) []string {
	var leaks []string
	var pids []int
	for end := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		pids = MarkedProcesses(marker)
		if len(pids) == 0 || time.Now().After(end) {
			break
		}
	}
	for _, pid := range pids {
		leaks = append(leaks, fmt.Sprintf("process %d: %s", pid, cmdline(pid)))
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
	leaks = append(leaks, LeftoverFiles(tmp)...)
	return leaks
}

// LeftoverFiles lists temporary browser directories and state files in dir.
func LeftoverFiles(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "cdpv-") {
			out = append(out, "temporary directory "+filepath.Join(dir, e.Name()))
		}
	}
	// Partial downloads, and download folders of instances left empty
	// (cdpvisor removes them when their instance stops; the bridges'
	// shared folder stays).
	root := filepath.Join(dir, "downloads", "cdpvisor")
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
		case !d.IsDir() && strings.HasSuffix(p, ".crdownload"):
			out = append(out, "partial download "+p)
		case d.IsDir() && p != root && p != filepath.Join(root, "bridge"):
			if entries, _ := os.ReadDir(p); len(entries) == 0 {
				out = append(out, "empty download folder "+p)
			}
		}
		return nil
	})
	// The default state directory (per user) under dir, and the seed's old one.
	for _, sub := range []string{"cdpvisor-" + strconv.Itoa(os.Geteuid()), "browser-coordinator"} {
		for _, pattern := range []string{"coordinator-*.json", "state.json"} {
			states, _ := filepath.Glob(filepath.Join(dir, sub, pattern))
			for _, p := range states {
				out = append(out, "state file "+p)
			}
		}
	}
	return out
}

// MarkedProcesses lists live processes carrying this test run's marker.
func MarkedProcesses(marker string) []int {
	want := []byte(markerVar + "=" + marker + "\x00")
	var out []int
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || zombie(pid) {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(append(env, 0), want) {
			out = append(out, pid)
		}
	}
	return out
}

// RunMarker is this test run's marker, for tests that count their own
// processes before and after.
func RunMarker() string { return os.Getenv(markerVar) }

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z'
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

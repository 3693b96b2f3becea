package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Issue 12 (items 5, 7, 8), what state_defects_test.go left open: a
// refused state dir says to remove it or pass --state-dir, another
// user's XDG_RUNTIME_DIR, status's debug note on ignored files, the
// takeover's log line, and wrap's and status's wording.

// runBounded runs cdpvisor like runCLI, but a command that should have
// failed at once and keeps running (a serve that accepted its state dir)
// is stopped with SIGTERM after limit and reported as still running.
func runBounded(t *testing.T, env []string, limit time.Duration, args ...string) (stdout, stderr string, code int, stillRunning bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 20 * time.Second
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	return o.String(), e.String(), cmd.ProcessState.ExitCode(), ctx.Err() != nil
}

// A state dir others may write to, or another user's, is refused, the
// default one and an explicit --state-dir alike, naming the dir, the mode
// or owner found, and what to do (remove it, or another --state-dir).
func TestStateDirOfOthersIsRefusedSayingWhatToDo(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	group := filepath.Join(t.TempDir(), "group")
	if err := os.Mkdir(group, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(group, 0o770); err != nil {
		t.Fatal(err)
	}
	_, stderr, code, running := runBounded(t, nil, 3*time.Second, "serve", "--browser", fake, "--state-dir", group)
	if running || code != 1 || !strings.Contains(stderr, group) || !strings.Contains(stderr, "0770") ||
		!strings.Contains(stderr, "remove it") || !strings.Contains(stderr, "--state-dir") {
		t.Fatalf("a group-writable --state-dir: still running %v, exit %d, %q", running, code, stderr)
	}

	// The default dir: cdpvisor-<uid> in the temp dir, found writable by others.
	tmp := t.TempDir()
	def := filepath.Join(tmp, "cdpvisor-"+strconv.Itoa(os.Geteuid()))
	if err := os.Mkdir(def, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(def, 0o703); err != nil {
		t.Fatal(err)
	}
	_, stderr, code, running = runBounded(t, []string{"TMPDIR=" + tmp, "XDG_RUNTIME_DIR="}, 3*time.Second, "serve", "--browser", fake)
	if running || code != 1 || !strings.Contains(stderr, def) || !strings.Contains(stderr, "0703") || !strings.Contains(stderr, "remove it") {
		t.Fatalf("a default state dir others may write to: still running %v, exit %d, %q", running, code, stderr)
	}

	needRoot(t)
	theirs := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, stderr, code, running = runBounded(t, nil, 3*time.Second, "serve", "--browser", fake, "--state-dir", theirs)
	if running || code != 1 || !strings.Contains(stderr, theirs) || !strings.Contains(stderr, "uid 65534") ||
		!strings.Contains(stderr, "remove it") || !strings.Contains(stderr, "--state-dir") {
		t.Fatalf("another user's --state-dir: still running %v, exit %d, %q", running, code, stderr)
	}
}

// An XDG_RUNTIME_DIR that is not the user's own (su keeps the caller's)
// is not used: the state dir falls back to cdpvisor-<uid> in the temp dir,
// and nothing is created in the other user's directory.
func TestAnotherUsersRuntimeDirIsNotUsed(t *testing.T) {
	needRoot(t)
	run := filepath.Join(t.TempDir(), "run-65534")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(run, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	s := startServe(t, []string{"XDG_RUNTIME_DIR=" + run, "TMPDIR=" + tmp}, "--browser", actortest.FakeBrowser(t))
	want := filepath.Join(tmp, "cdpvisor-"+strconv.Itoa(os.Geteuid()))
	files, _ := filepath.Glob(filepath.Join(want, "coordinator-*.json"))
	if len(files) != 1 {
		t.Errorf("state files in %s: %v, want this coordinator's", want, files)
	}
	if _, err := os.Stat(filepath.Join(run, "cdpvisor")); !os.IsNotExist(err) {
		t.Errorf("a state dir was made in another user's XDG_RUNTIME_DIR: %v", err)
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
}

// status and wrap ignore another user's state files and say so at debug level.
func TestStatusSaysAtDebugWhichFilesItIgnores(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	theirs := writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: os.Getpid(), StartedAt: time.Now()})
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, nil, "status", "--log-level", "debug", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "no cdpvisor coordinator has a state file") ||
		!strings.Contains(stderr, "another user") || !strings.Contains(stderr, "coordinator-1.json") {
		t.Fatalf("status with another user's file: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, stderr, _ = runCLI(t, nil, "status", "--state-dir", dir); stderr != "" {
		t.Fatalf("status said more than its default level should: %q", stderr)
	}
	// wrap, the same.
	_, stderr, code = runWrapCLI(t, "--log-level", "debug", "--state-dir", dir, "--timeout", "200ms", "--", "true")
	if code == 0 || !strings.Contains(stderr, "another user owns") || !strings.Contains(stderr, "coordinator-1.json") {
		t.Fatalf("wrap with another user's file: exit %d, %q", code, stderr)
	}
}

// The takeover is logged at info with the port and the dead coordinator's pid.
func TestTakeoverLogNamesThePortAndTheDeadPid(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	dir := t.TempDir()
	first := startServe(t, nil, "--port", "0", "--browser", fake, "--state-dir", dir)
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.done <- <-first.done
	again := startServe(t, nil, "--browser", fake, "--state-dir", dir)
	port := first.endpoint[strings.LastIndexByte(first.endpoint, ':')+1:]
	want := fmt.Sprintf("took over the port %s of the dead coordinator pid %d", port, first.cmd.Process.Pid)
	if again.endpoint != first.endpoint || !again.logged(want) || !strings.Contains(again.stderr.String(), "INF") {
		t.Fatalf("restarted on %s (killed one on %s); log lacks %q at info:\n%s", again.endpoint, first.endpoint, want, again.stderr.String())
	}
	if err := again.stop(t); err != nil {
		t.Fatal(err)
	}
}

// wrap --state in a directory that does not exist says so at once, and
// where the state files are.
func TestWrapStateInMissingDirSaysWhereToLook(t *testing.T) {
	start := time.Now()
	_, stderr, code := runCLI(t, []string{"XDG_RUNTIME_DIR="}, "wrap", "--state", "/nonexistent/dir/coordinator-1.json", "--", "true")
	if code != 1 || time.Since(start) > 3*time.Second || !strings.Contains(stderr, "no such directory: /nonexistent/dir") ||
		!strings.Contains(stderr, state.DefaultDir()) || !strings.Contains(stderr, "cdpvisor status") {
		t.Fatalf("--state in a missing dir: exit %d after %s: %q", code, time.Since(start), stderr)
	}
}

// What wrap waits for is said once, readably: the dir or file searched,
// the instance when one was asked for, and the timeout with its unit.
func TestWrapSaysReadablyWhatItWaitsFor(t *testing.T) {
	dir := t.TempDir()
	_, stderr, _ := runWrapCLI(t, "--state-dir", dir, "--timeout", "300ms", "--", "true")
	if strings.Count(stderr, "waiting") != 1 || !strings.Contains(stderr, dir) || !strings.Contains(stderr, "300ms") ||
		strings.Contains(stderr, "instance=") {
		t.Fatalf("wrap's wait, no instance: %q", stderr)
	}
	file := filepath.Join(dir, "coordinator-1.json")
	_, stderr, _ = runWrapCLI(t, "--state", file, "--instance", "inst_1_x", "--timeout", "300ms", "--", "true")
	if strings.Count(stderr, "waiting") != 1 || !strings.Contains(stderr, file) || !strings.Contains(stderr, "inst_1_x") ||
		!strings.Contains(stderr, "300ms") {
		t.Fatalf("wrap's wait for an instance in a file: %q", stderr)
	}
}

// With nothing live, status prints no empty table, its JSON lists each
// dead coordinator's instances as [] (never null), and its help says
// which exit code means what.
func TestStatusOfDeadCoordinatorsOnly(t *testing.T) {
	dir := t.TempDir()
	writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), StartedAt: time.Now()})
	out, _, code := runCLI(t, nil, "status", "--state-dir", dir)
	if code != 1 || strings.Contains(out, "COORDINATOR") || !strings.Contains(out, "stale") {
		t.Fatalf("status with only a stale file: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, nil, "status", "--json", "--state-dir", dir)
	var list []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || string(list[0]["instances"]) != "[]" {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	help, _, _ := runCLI(t, []string{"XDG_RUNTIME_DIR="}, "status", "--help")
	if !strings.Contains(help, "0 when") || !strings.Contains(help, "no state file") {
		t.Fatalf("status --help does not say when it exits 0:\n%s", help)
	}
}

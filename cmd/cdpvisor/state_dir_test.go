package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Tests for the state-directory and CLI defects a user trial found (issue
// 12, items 5, 7 and 8), through the command line.

func needRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
}

// The default state directory is the user's own: $XDG_RUNTIME_DIR/cdpvisor,
// else cdpvisor-<uid> in the temp dir, created 0700.
func TestDefaultStateDirIsPerUserAndPrivate(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ env, dir string }{
		{"XDG_RUNTIME_DIR=" + run, filepath.Join(run, "cdpvisor")},
		{"XDG_RUNTIME_DIR=", filepath.Join(os.TempDir(), "cdpvisor-"+strconv.Itoa(os.Geteuid()))},
	} {
		s := startServe(t, []string{c.env}, "--browser", actortest.FakeBrowser(t))
		info, err := os.Stat(c.dir)
		if err != nil || info.Mode().Perm() != 0o700 {
			t.Fatalf("%s: state dir %s: %v %v, want mode 0700", c.env, c.dir, info, err)
		}
		if files, _ := filepath.Glob(filepath.Join(c.dir, "coordinator-*.json")); len(files) != 1 {
			t.Fatalf("%s: state files %v in %s", c.env, files, c.dir)
		}
		if err := s.stop(t); err != nil {
			t.Fatal(err)
		}
	}
}

// A state directory others may write to, or another user's, is refused
// with what to do.
func TestStateDirOthersCanWriteIsRefused(t *testing.T) {
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, nil, "serve", "--browser", actortest.FakeBrowser(t), "--state-dir", open)
	if code != 1 || !strings.Contains(stderr, open) || !strings.Contains(stderr, "chmod 700") {
		t.Fatalf("a world-writable state dir: exit %d, %q", code, stderr)
	}
	needRoot(t)
	theirs := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, nil, "serve", "--browser", actortest.FakeBrowser(t), "--state-dir", theirs)
	if code != 1 || !strings.Contains(stderr, "uid 65534") || !strings.Contains(stderr, "--state-dir") {
		t.Fatalf("another user's state dir: exit %d, %q", code, stderr)
	}
}

// A state file another user owns is never trusted: wrap does not use it,
// status does not show it, the reaper does not remove it.
func TestAnotherUsersStateFilesAreIgnored(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	port := wrapCoordinator(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
	if len(files) != 1 {
		t.Fatalf("state files %v", files)
	}
	if err := os.Chown(files[0], 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runWrapCLI(t, "--state-dir", dir, "--timeout", "300ms", "--", "true")
	if code == 0 || !strings.Contains(stderr, "another user's") {
		t.Fatalf("wrap used another user's state file (port %d): exit %d, %q", port, code, stderr)
	}
	out, _, _ := runCLI(t, nil, "status", "--json", "--state-dir", dir)
	if strings.TrimSpace(out) != "[]" {
		t.Fatalf("status shows another user's state file: %s", out)
	}
	dead := filepath.Join(dir, "coordinator-1.json")
	writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), StartedAt: time.Now()})
	if err := os.Chown(dead, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir) // its reaper runs
	if _, err := os.Stat(dead); err != nil {
		t.Fatalf("the reaper removed another user's state file: %v", err)
	}
	_ = s.stop(t)
	_ = os.Chown(files[0], 0, 0) // the first coordinator removes its own file at its end
	_ = os.Remove(dead)
}

// A coordinator started again after its predecessor was killed takes over
// the port, so the wrapped children's URL works again; with the port taken
// by someone else it picks another.
func TestRestartedCoordinatorTakesOverTheKilledOnesPort(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	for _, launched := range []bool{true, false} {
		dir := t.TempDir()
		first := startServe(t, nil, "--browser", fake, "--state-dir", dir)
		if launched { // its watchdog removes the state file after the kill
			endpointAnswers(t, first.endpoint)
			guardOf(t, first.cmd.Process.Pid)
		}
		if err := first.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-first.done
		first.done <- nil
		if launched {
			for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if left, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json")); len(left) == 0 {
					break
				}
				if time.Now().After(end) {
					t.Fatal("the watchdog did not clean up after the kill")
				}
			}
		}
		again := startServe(t, nil, "--browser", fake, "--state-dir", dir)
		if again.endpoint != first.endpoint {
			t.Fatalf("launched=%v: the restarted coordinator serves %s, want the killed one's %s", launched, again.endpoint, first.endpoint)
		}
		if !again.logged("took over the port") {
			t.Fatalf("the takeover was not logged: %s", again.stderr.String())
		}
		endpointAnswers(t, again.endpoint)
		_ = again.stop(t)
	}
	// The killed one's port is busy: any free port, no error.
	dir := t.TempDir()
	first := startServe(t, nil, "--browser", fake, "--state-dir", dir)
	_ = first.cmd.Process.Kill()
	<-first.done
	first.done <- nil
	squatter := startServe(t, nil, "--browser", fake, "--state-dir", t.TempDir(), "--port", first.endpoint[strings.LastIndexByte(first.endpoint, ':')+1:])
	again := startServe(t, nil, "--browser", fake, "--state-dir", dir)
	if again.endpoint == first.endpoint || again.endpoint == squatter.endpoint {
		t.Fatalf("with its old port busy: %s", again.endpoint)
	}
}

func TestStatusSaysWhatIsDeadAndCorrupt(t *testing.T) {
	dir := t.TempDir()
	out, _, code := runCLI(t, nil, "status", "--json", "--state-dir", dir)
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("status --json with nothing: exit %d, %q, want [] and 0", code, out)
	}
	corrupt := filepath.Join(dir, "coordinator-77.json")
	if err := os.WriteFile(corrupt, []byte(`{"port": 12`), 0o600); err != nil {
		t.Fatal(err)
	}
	writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), StartedAt: time.Now()})
	out, stderr, code := runCLI(t, nil, "status", "--state-dir", dir)
	if code != 1 || !strings.Contains(stderr, "no live coordinator") || strings.Contains(out, "pid 0") ||
		!strings.Contains(out, "coordinator-77.json") || !strings.Contains(out, "corrupt") {
		t.Fatalf("status with a stale and a corrupt file: exit %d\n%s\n%s", code, out, stderr)
	}
	var list []map[string]any
	out, _, _ = runCLI(t, nil, "status", "--json", "--state-dir", dir)
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 {
		t.Fatalf("status --json: %v %s", err, out)
	}
	// A corrupt file is reaped once it is old enough not to be one being written.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(corrupt, old, old); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "coordinator-78.json")
	if err := os.WriteFile(fresh, []byte(`{"po`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	if _, err := os.Stat(corrupt); !os.IsNotExist(err) {
		t.Fatalf("an old corrupt state file was not reaped: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("a state file being written was reaped: %v", err)
	}
	_ = s.stop(t)
	_ = os.Remove(fresh)
}

func TestWrapSaysAtOnceWhatItCannotFind(t *testing.T) {
	start := time.Now()
	_, stderr, code := runWrapCLI(t, "--state", "/nonexistent/dir/coordinator-1.json", "--timeout", "10s", "--", "true")
	if code == 0 || !strings.Contains(stderr, "/nonexistent/dir") || time.Since(start) > 3*time.Second {
		t.Fatalf("--state in a missing directory: exit %d after %s: %q", code, time.Since(start), stderr)
	}
	dir := t.TempDir()
	wrapCoordinator(t, dir)
	out, _, _ := runCLI(t, nil, "status", "--json", "--state-dir", dir)
	var list []state.CoordinatorStatus
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || len(list[0].Instances) != 1 {
		t.Fatalf("status: %v %s", err, out)
	}
	start = time.Now()
	_, stderr, code = runWrapCLI(t, "--state-dir", dir, "--instance", "nope", "--timeout", "10s", "--", "true")
	if code == 0 || !strings.Contains(stderr, `unknown instance "nope"`) || !strings.Contains(stderr, list[0].Instances[0].ID) ||
		strings.Contains(stderr, "start one") || time.Since(start) > 3*time.Second {
		t.Fatalf("--instance nope: exit %d after %s: %q", code, time.Since(start), stderr)
	}
	_, stderr, _ = runWrapCLI(t, "--state-dir", t.TempDir(), "--timeout", "300ms", "--", "true")
	if strings.Count(stderr, "waiting for one") != 1 {
		t.Fatalf("wrap said nothing (or more than once) while it waited: %q", stderr)
	}
}

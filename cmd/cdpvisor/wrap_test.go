package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
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

// wrapCoordinator starts `cdpvisor serve` in stateDir; no browser runs
// unless a client asks, so any executable will do as the browser.
func wrapCoordinator(t *testing.T, stateDir string) (port int) {
	t.Helper()
	s := startServe(t, nil, "--port", "0", "--state-dir", stateDir, "--browser", os.Args[0], "--log-level", "warn")
	i := strings.LastIndexByte(s.endpoint, ':')
	port, err := strconv.Atoi(s.endpoint[i+1:])
	if err != nil {
		t.Fatalf("endpoint %q: %v", s.endpoint, err)
	}
	return port
}

func runWrapCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCLI(t, nil, append([]string{"wrap"}, args...)...)
}

func TestWrapIgnoresStaleStateFiles(t *testing.T) {
	dir := t.TempDir()
	port := wrapCoordinator(t, dir)
	// A more recent coordinator that died without cleaning up.
	stale := writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), PPID: os.Getpid(), StartedAt: time.Now().Add(time.Hour)})
	out, stderr, code := runWrapCLI(t, "--state-dir", dir, "--", "sh", "-c", "echo $CDP_PORT")
	if code != 0 || strings.TrimSpace(out) != strconv.Itoa(port) {
		t.Fatalf("wrap: code %d, stdout %q (want %d); stderr:\n%s", code, out, port, stderr)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("wrap touched the stale state file: %v", err)
	}
}

func TestWrapSubstitutesAndExports(t *testing.T) {
	dir := t.TempDir()
	port := wrapCoordinator(t, dir)
	ep := fmt.Sprintf("http://127.0.0.1:%d", port)
	ws := fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", port)
	out, stderr, code := runWrapCLI(t, "--state-dir", dir, "--", "sh", "-c", `echo "$CDP_PORT $CDP_ENDPOINT $CDP_WS"; echo "$1"`,
		"sh", "port={cdp_port} endpoint={cdp_endpoint} ws={cdp_ws}")
	want := fmt.Sprintf("%d %s %s\nport=%d endpoint=%s ws=%s\n", port, ep, ws, port, ep, ws)
	if code != 0 || out != want {
		t.Fatalf("wrap: code %d, stdout\n%q\nwant\n%q\nstderr:\n%s", code, out, want, stderr)
	}
	if stderr != "" {
		t.Errorf("wrap wrote to stderr: %q", stderr)
	}
	// Without --, the first non-flag argument starts the command; the
	// environment variables configure wrap too.
	out, stderr, code = runCLI(t, []string{"CDPVISOR_STATE_DIR=" + dir, "CDPVISOR_TIMEOUT=2s"}, "wrap", "echo", "{cdp_port}", "--timeout", "x")
	if code != 0 || out != fmt.Sprintf("%d --timeout x\n", port) {
		t.Fatalf("wrap without --: code %d, stdout %q; stderr:\n%s", code, out, stderr)
	}
}

// Two live coordinators: wrap picks the one its own parent started, even
// though the other one is more recent.
func TestWrapPrefersTheCoordinatorOfItsParent(t *testing.T) {
	dir := t.TempDir()
	goFile := filepath.Join(t.TempDir(), "go")
	serve := fmt.Sprintf("%s serve --port 0 --state-dir %s --browser %s --log-level warn >/dev/null 2>&1", binary, dir, os.Args[0])
	sibling := exec.Command("sh", "-c", serve+` & S=$!
while [ ! -e `+goFile+` ]; do sleep 0.02; done
`+binary+` wrap --state-dir `+dir+` -- sh -c 'echo {cdp_port}'
echo "wrap=$?"
kill $S; wait`)
	var siblingOut actortest.SyncBuffer
	sibling.Stdout, sibling.Stderr = &siblingOut, &siblingOut
	other := exec.Command("sh", "-c", serve+` & S=$!; trap 'kill $S; wait $S; exit 0' TERM; wait`)
	var otherOut actortest.SyncBuffer
	other.Stdout, other.Stderr = &otherOut, &otherOut
	if err := sibling.Start(); err != nil {
		t.Fatal(err)
	}
	siblingDone := make(chan error, 1)
	go func() { siblingDone <- sibling.Wait() }()
	otherDone := make(chan error, 1)
	t.Cleanup(func() {
		if other.Process != nil {
			_ = other.Process.Signal(syscall.SIGTERM)
			<-otherDone
		}
		_ = os.WriteFile(goFile, nil, 0o644)
		<-siblingDone
	})
	states := waitStateFiles(t, dir, 1)
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { otherDone <- other.Wait() }()
	states = waitStateFiles(t, dir, 2)
	var mine, theirs state.File
	for _, s := range states {
		switch s.PPID {
		case sibling.Process.Pid:
			mine = s
		case other.Process.Pid:
			theirs = s
		}
	}
	if mine.PID == 0 || theirs.PID == 0 || !theirs.StartedAt.After(mine.StartedAt) {
		t.Fatalf("state files %+v: want one per parent, the other one more recent", states)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-siblingDone:
		siblingDone <- err
	case <-time.After(20 * time.Second):
		t.Fatalf("the sibling script did not finish:\n%s", siblingOut.String())
	}
	want := fmt.Sprintf("%d\nwrap=0\n", mine.Port)
	if got := siblingOut.String(); got != want {
		t.Fatalf("wrap under the sibling's parent printed %q, want %q (the other coordinator is on %d)", got, want, theirs.Port)
	}
}

// waitStateFiles waits until dir holds n coordinator state files.
func waitStateFiles(t *testing.T, dir string, n int) []state.File {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		paths, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
		var out []state.File
		for _, p := range paths {
			if s, err := state.Read(p); err == nil {
				out = append(out, s)
			}
		}
		if len(out) == n {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d state files in %s, want %d", len(out), dir, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestWrapExitCodes(t *testing.T) {
	dir := t.TempDir()
	wrapCoordinator(t, dir)
	notExec := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		command []string
		code    int
		stderr  string
	}{
		{"exit 7", []string{"sh", "-c", "exit 7"}, 7, ""},
		{"killed", []string{"sh", "-c", "kill -KILL $$"}, 128 + 9, ""},
		{"missing", []string{"cdpvisor-no-such-command", "--flag"}, 127, "cdpvisor wrap: command not found: cdpvisor-no-such-command\n"},
		{"missing path", []string{"/nonexistent/{cdp_port}"}, 127, "cdpvisor wrap: command not found: /nonexistent/"},
		{"not executable", []string{notExec}, 127, "cdpvisor wrap: command not found: " + notExec},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := runWrapCLI(t, append([]string{"--state-dir", dir, "--"}, c.command...)...)
			if code != c.code || out != "" || !strings.HasPrefix(stderr, c.stderr) || (c.stderr == "" && stderr != "") {
				t.Fatalf("code %d (want %d), stdout %q, stderr %q (want %q)", code, c.code, out, stderr, c.stderr)
			}
		})
	}
}

func TestWrapUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"--"}, {"--timeout", "1s"}, {"--no-such-flag", "--", "true"}, {"--standalone", "--instance", "x", "--", "true"}} {
		out, stderr, code := runWrapCLI(t, args...)
		if code != 2 || out != "" || stderr == "" {
			t.Errorf("wrap %q: code %d (want 2), stdout %q, stderr %q", args, code, out, stderr)
		}
	}
}

// wrap passes SIGTERM, SIGINT and SIGHUP on to its child and exits with
// the child's code.
func TestWrapForwardsSignals(t *testing.T) {
	dir := t.TempDir()
	wrapCoordinator(t, dir)
	for _, c := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGTERM, "TERM", 42}, {syscall.SIGINT, "INT", 43}, {syscall.SIGHUP, "HUP", 44}} {
		t.Run(c.name, func(t *testing.T) {
			script := fmt.Sprintf(`trap "exit %d" %s; echo ready; while :; do sleep 0.05; done`, c.code, c.name)
			cmd := exec.Command(binary, "wrap", "--state-dir", dir, "--", "sh", "-c", script)
			var stderr actortest.SyncBuffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			ready := make(chan bool, 1)
			go func() {
				sc := bufio.NewScanner(stdout)
				ready <- sc.Scan() && sc.Text() == "ready"
				_, _ = io.Copy(io.Discard, stdout)
				done <- cmd.Wait()
			}()
			defer func() {
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					_ = cmd.Process.Kill()
					<-done
					t.Errorf("wrap did not exit within 10 s of %s; stderr:\n%s", c.name, stderr.String())
				}
			}()
			select {
			case ok := <-ready:
				if !ok {
					t.Fatalf("the child did not say ready; stderr:\n%s", stderr.String())
				}
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Signal(syscall.SIGKILL)
				t.Fatalf("no ready line; stderr:\n%s", stderr.String())
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				done <- err
			case <-time.After(10 * time.Second):
				return // the deferred check reports it
			}
			if code := cmd.ProcessState.ExitCode(); code != c.code {
				t.Fatalf("wrap exited %d after SIG%s, want the child's %d; stderr:\n%s", code, c.name, c.code, stderr.String())
			}
		})
	}
}

func TestWrapWithoutCoordinatorFailsClearly(t *testing.T) {
	dir := t.TempDir()
	writeStateFile(t, dir, "coordinator-1.json", state.File{Port: actortest.ClosedPort(t), PID: actortest.DeadPID(t), StartedAt: time.Now()})
	start := time.Now()
	out, stderr, code := runWrapCLI(t, "--timeout", "300ms", "--state-dir", dir, "--", "echo", "should not run")
	took := time.Since(start)
	if code != 1 || out != "" {
		t.Fatalf("code %d (want 1), stdout %q; stderr:\n%s", code, out, stderr)
	}
	for _, w := range []string{"cdpvisor wrap: no running cdpvisor coordinator found in " + dir, "cdpvisor mcp", "--standalone", "stale"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if took > 3*time.Second {
		t.Errorf("took %s with --timeout 300ms", took)
	}
}

// With --standalone and no coordinator, wrap runs one for the child's
// lifetime: the child reaches a browser through it, and when the child
// exits, the browser, its profile and the state files are gone.
func TestWrapStandalone(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	dir := t.TempDir()
	script := `echo "$CDP_ENDPOINT {cdp_endpoint}"; ls "$1"; curl -sf --noproxy '*' {cdp_endpoint}/json/version; echo; exit 3`
	cmd := exec.Command(binary, "wrap", "--standalone", "--timeout", "200ms", "--state-dir", dir, "--browser", fake,
		"--", "sh", "-c", script, "sh", dir)
	var stdout, stderr actortest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); cmd.ProcessState == nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("wrap stderr:\n%s", stderr.String())
		}
	}()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Fatalf("wrap exited %d, want the child's 3", code)
	}
	pid := cmd.Process.Pid
	got := lines(stdout.String())
	if len(got) < 4 {
		t.Fatalf("child output %q", got)
	}
	f := strings.Fields(got[0])
	if len(f) != 2 || f[0] != f[1] || !strings.HasPrefix(f[0], "http://127.0.0.1:") {
		t.Fatalf("endpoint line %q", got[0])
	}
	endpoint := f[0]
	if got[1] != fmt.Sprintf("coordinator-%d.json", pid) || got[2] != state.PointerFile {
		t.Errorf("state files while the child ran: %q, want coordinator-%d.json and state.json", got[1:3], pid)
	}
	var version struct{ Browser, WebSocketDebuggerURL string }
	body := strings.Join(got[3:], "\n")
	if err := json.Unmarshal([]byte(body), &version); err != nil || version.Browser == "" {
		t.Fatalf("/json/version through the standalone coordinator: %q (%v)", body, err)
	}
	if host := strings.TrimPrefix(endpoint, "http://"); !strings.Contains(version.WebSocketDebuggerURL, host) {
		t.Errorf("webSocketDebuggerUrl %q does not point at %s", version.WebSocketDebuggerURL, endpoint)
	}
	// Everything stopped before wrap exited.
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
	profiles, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("cdpv-%d-*", pid)))
	if len(profiles) != 0 {
		t.Errorf("temporary profiles left: %v", profiles)
	}
	for _, p := range actortest.MarkedProcesses(actortest.RunMarker()) {
		if cl := actortest.Cmdline(p); strings.Contains(cl, fmt.Sprintf("cdpv-%d-", pid)) {
			t.Errorf("browser %d still runs after wrap exited: %s", p, cl)
		}
	}
	if !strings.Contains(stderr.String(), "standalone") {
		t.Errorf("no log line about the standalone coordinator on stderr")
	}
}

// --standalone uses a running coordinator when there is one.
func TestWrapStandalonePrefersARunningCoordinator(t *testing.T) {
	dir := t.TempDir()
	port := wrapCoordinator(t, dir)
	out, stderr, code := runWrapCLI(t, "--standalone", "--state-dir", dir, "--browser", "/nonexistent", "--", "sh", "-c", "echo $CDP_PORT")
	if code != 0 || strings.TrimSpace(out) != strconv.Itoa(port) {
		t.Fatalf("code %d, stdout %q (want %d); stderr:\n%s", code, out, port, stderr)
	}
}

// writeStateFile writes a coordinator's state file as a coordinator would.
func writeStateFile(t *testing.T, dir, name string, s state.File) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := state.WriteFileAtomic(path, data); err != nil {
		t.Fatal(err)
	}
	return path
}
func TestSplitCommand(t *testing.T) {
	for _, c := range []struct{ args, flags, command string }{
		{"--timeout 1s -- npx mcp --browserUrl=x", "--timeout 1s --", "npx mcp --browserUrl=x"},
		{"--standalone npx mcp --port 3", "--standalone", "npx mcp --port 3"},
		{"-- --weird -x", "--", "--weird -x"},
		{"--", "--", ""},
		{"--bogus x", "--bogus x", ""},
	} {
		f, cmd := splitCommand(strings.Fields(c.args))
		if strings.Join(f, " ") != c.flags || strings.Join(cmd, " ") != c.command {
			t.Errorf("%q: flags %q command %q, want %q and %q", c.args, f, cmd, c.flags, c.command)
		}
	}
}

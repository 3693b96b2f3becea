package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

var binary string

func TestMain(m *testing.M) {
	// The coordinators the tests start keep their named worlds' sign-ins
	// where no state dir is given: in a directory of the run's, never the
	// user's own (~/.local/state).
	kept, err := os.MkdirTemp("", "cdpvkept-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", kept)
	code := actortest.LeakCheckMain(withBinary(m))
	os.RemoveAll(filepath.Dir(binary))
	os.RemoveAll(kept)
	os.Exit(code)
}

// withBinary builds cdpvisor once for the package's tests.
func withBinary(m *testing.M) *testing.M {
	dir, err := os.MkdirTemp("", "cdpvbin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cdpvisor")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build cdpvisor: %v\n%s", err, out)
		os.Exit(1)
	}
	return m
}

// served is a `cdpvisor serve` process started by a test.
type served struct {
	cmd      *exec.Cmd
	endpoint string
	stdout   *actortest.SyncBuffer
	stderr   *actortest.SyncBuffer
	done     chan error
}

// logged says whether serve's stderr has text within 5 s: the endpoint
// line on stdout can come before stderr's lines were read.
func (s *served) logged(text string) bool {
	for end := time.Now().Add(5 * time.Second); !strings.Contains(s.stderr.String(), text); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// startServe starts `cdpvisor serve` and waits for its endpoint line. The
// process is ended (SIGTERM) at cleanup unless the test did it.
func startServe(t *testing.T, env []string, args ...string) *served {
	t.Helper()
	s := &served{stdout: &actortest.SyncBuffer{}, stderr: &actortest.SyncBuffer{}, done: make(chan error, 1)}
	s.cmd = exec.Command(binary, append([]string{"serve"}, args...)...)
	s.cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	s.cmd.Stdout = io.MultiWriter(s.stdout, pw)
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait(); pw.Close() }()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, pr)
	}()
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			_ = s.cmd.Process.Kill()
			t.Errorf("serve did not exit within 20 s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("serve stderr:\n%s", s.stderr.String())
		}
	})
	select {
	case l, ok := <-line:
		if !ok {
			t.Fatalf("serve printed no endpoint; stderr:\n%s", s.stderr.String())
		}
		s.endpoint = l
	case <-time.After(10 * time.Second):
		t.Fatalf("no endpoint line within 10 s; stderr:\n%s", s.stderr.String())
	}
	return s
}

// stop sends SIGTERM and returns the exit error.
func (s *served) stop(t *testing.T) error {
	t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not exit within 20 s of SIGTERM")
		return nil
	}
}

// browsers lists the browser processes serve launched (its direct children).
func (s *served) browsers() []int { return browserChildren(s.cmd.Process.Pid) }

// browserChildren lists a coordinator's children but its watchdogs. Those
// run cdpvisor itself, which is also what a child forked but not yet
// exec'd shows, so they are told apart by the executable.
func browserChildren(coordinator int) []int {
	var out []int
	for _, pid := range actortest.Children(coordinator) {
		if info, err := proc.ProcessInfo(pid); err == nil && info.Exe != binary {
			out = append(out, pid)
		}
	}
	return out
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, resp.Status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v: %s", url, err, body)
	}
}

// runCLI runs cdpvisor to completion.
func runCLI(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	// A command that should exit but serves instead (a test's assumption
	// broken by the machine, e.g. a browser newly on PATH) fails the test
	// instead of hanging the suite.
	ctx, cancel := context.WithTimeout(context.Background(), runCLITimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("cdpvisor %v did not exit within %s; stderr:\n%s", args, runCLITimeout, e.String())
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("cdpvisor %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

// runCLITimeout bounds a command runCLI expects to end by itself.
const runCLITimeout = 2 * time.Minute

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

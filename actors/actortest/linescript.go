package actortest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// LineScript is a client script of testdata/clients that talks line by
// line: it prints a line when it waits for the test (to kill a browser,
// count processes) and goes on at a line on its stdin.
type LineScript struct {
	Cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr SyncBuffer
}

// StartLineScript starts a script; it is killed at the end of the test if
// still running, and its stderr is logged if the test failed.
func StartLineScript(t testing.TB, timeout time.Duration, script string, args ...string) *LineScript {
	t.Helper()
	dir := ClientsDir(t)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	return startLines(t, timeout, script, cmd)
}

// StartLineProgram starts a client program of testdata/goclients (GoClient
// builds it) that talks line by line as the scripts do.
func StartLineProgram(t testing.TB, timeout time.Duration, program string, args ...string) *LineScript {
	t.Helper()
	return startLines(t, timeout, program, exec.Command(GoClient(t, program), args...))
}

func startLines(t testing.TB, timeout time.Duration, name string, cmd *exec.Cmd) *LineScript {
	t.Helper()
	s := &LineScript{Cmd: cmd}
	s.Cmd.Env = append(os.Environ(), "CLIENT_TIMEOUT_MS="+strconv.Itoa(int(timeout/time.Millisecond)))
	s.Cmd.Stderr = &s.stderr
	s.stdin, _ = s.Cmd.StdinPipe()
	stdout, _ := s.Cmd.StdoutPipe()
	s.lines = bufio.NewScanner(stdout)
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.Cmd.ProcessState == nil {
			_ = s.Cmd.Process.Kill()
			_ = s.Cmd.Wait()
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", name, s.stderr.String())
		}
	})
	return s
}

// Next returns the script's next stdout line; false once it has ended.
func (s *LineScript) Next() (string, bool) {
	if !s.lines.Scan() {
		return "", false
	}
	return s.lines.Text(), true
}

// Go lets the waiting script go on.
func (s *LineScript) Go() { fmt.Fprintln(s.stdin, "go") }

// Wait closes its stdin and waits for it to end.
func (s *LineScript) Wait() error {
	s.stdin.Close()
	for s.lines.Scan() {
	}
	if err := s.Cmd.Wait(); err != nil {
		return fmt.Errorf("%w\n%s", err, s.stderr.String())
	}
	return nil
}

// SyncBuffer is a bytes.Buffer that a process's output and a test can
// share.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *SyncBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *SyncBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

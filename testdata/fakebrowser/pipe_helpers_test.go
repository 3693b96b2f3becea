package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests run the fake as a process of its own with the pipe on fds 3 and
// 4: the test binary re-executes itself as the fake when runAsFake is set,
// so the fake runs under the test's -race too.
const runAsFake = "FAKEBROWSER_TEST_RUN_AS_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(runAsFake) == "1" {
		main() // parses os.Args[1:] as Chromium's command line; never returns
	}
	os.Exit(m.Run())
}

// fake is one fake browser process and the client end of its pipe.
type fake struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     *os.File // the fake's fd 3
	msgs   chan []byte
	exited chan struct{}
	code   int
	stderr *stderrBuffer
}

// msg is one message from the pipe, Raw byte for byte.
type msg struct {
	Raw       []byte
	ID        *int64          `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     *cdpError       `json:"error"`
	SessionID string          `json:"sessionId"`
}

type stderrBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *stderrBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *stderrBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func startFake(t *testing.T, args ...string) *fake {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{t: t, in: cmdW, msgs: make(chan []byte, 1000), exited: make(chan struct{}), stderr: &stderrBuffer{}}
	f.cmd = exec.Command(os.Args[0], append([]string{"--headless=new"}, args...)...)
	f.cmd.Env = append(os.Environ(), runAsFake+"=1")
	f.cmd.ExtraFiles = []*os.File{cmdR, outW}
	f.cmd.Stderr = f.stderr
	if err := f.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	go func() {
		defer outR.Close()
		defer close(f.msgs)
		r := bufio.NewReader(outR)
		for {
			m, err := r.ReadBytes(0)
			if err != nil {
				return
			}
			f.msgs <- m[:len(m)-1]
		}
	}()
	go func() {
		f.cmd.Wait()
		f.code = f.cmd.ProcessState.ExitCode()
		close(f.exited)
	}()
	t.Cleanup(func() {
		f.in.Close()
		f.cmd.Process.Kill()
		<-f.exited
		if strings.Contains(f.stderr.String(), "DATA RACE") {
			t.Errorf("the fake raced:\n%s", f.stderr)
		}
	})
	return f
}

// send writes one message and its NUL.
func (f *fake) send(raw string) {
	f.t.Helper()
	if _, err := f.in.Write(append([]byte(raw), 0)); err != nil {
		f.t.Fatalf("writing to the pipe: %v", err)
	}
}

// next returns the next message, or false when none came within d or the
// pipe closed.
func (f *fake) next(d time.Duration) (msg, bool) {
	f.t.Helper()
	select {
	case raw, ok := <-f.msgs:
		if !ok {
			return msg{}, false
		}
		var m msg
		if err := json.Unmarshal(raw, &m); err != nil {
			f.t.Fatalf("not JSON on the pipe: %q", raw)
		}
		m.Raw = raw
		return m, true
	case <-time.After(d):
		return msg{}, false
	}
}

func (f *fake) mustNext() msg {
	f.t.Helper()
	m, ok := f.next(5 * time.Second)
	if !ok {
		f.t.Fatal("no message from the fake within 5s")
	}
	return m
}

// command builds a command; session "" is the pipe's root.
func command(id int64, session, method, params string) string {
	s := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		s += `,"params":` + params
	}
	if session != "" {
		s += fmt.Sprintf(`,"sessionId":%q`, session)
	}
	return s + "}"
}

// call sends a command and returns the messages before its answer (events,
// and answers for other sessions) and the answer.
func (f *fake) call(id int64, session, method, params string) ([]msg, msg) {
	f.t.Helper()
	f.send(command(id, session, method, params))
	return f.answer(id, session)
}

func (f *fake) answer(id int64, session string) ([]msg, msg) {
	f.t.Helper()
	var before []msg
	for {
		m := f.mustNext()
		if m.ID != nil && *m.ID == id && m.SessionID == session {
			return before, m
		}
		before = append(before, m)
	}
}

// wantOK fails unless m is an answer with no error, with session last (none
// for the root), and returns its result.
func (f *fake) wantOK(m msg, session string) json.RawMessage {
	f.t.Helper()
	if m.Error != nil || m.Result == nil {
		f.t.Fatalf("want a result, got %s", m.Raw)
	}
	f.wantLast(m, session)
	return m.Result
}

// wantLast checks that the message's sessionId is its last member (or that
// it has none when session is "").
func (f *fake) wantLast(m msg, session string) {
	f.t.Helper()
	if m.SessionID != session {
		f.t.Fatalf("sessionId %q, want %q: %s", m.SessionID, session, m.Raw)
	}
	if session != "" && !bytes.HasSuffix(m.Raw, []byte(`,"sessionId":"`+session+`"}`)) {
		f.t.Fatalf("sessionId is not the last member: %s", m.Raw)
	}
}

// exitCode waits for the process to end.
func (f *fake) exitCode(d time.Duration) int {
	f.t.Helper()
	select {
	case <-f.exited:
		return f.code
	case <-time.After(d):
		f.t.Fatalf("the fake still runs after %v", d)
		return 0
	}
}

// of picks the messages with a method on a session.
func of(msgs []msg, session, method string) []msg {
	var out []msg
	for _, m := range msgs {
		if m.SessionID == session && m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

func decodeAs[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// worldOpen runs `cdpvisor world open NAME` and answers the endpoint it
// printed alone on stdout.
func worldOpen(t *testing.T, dir, name string) string {
	t.Helper()
	out, stderr, code := runCLI(t, nil, "world", "open", name, "--state-dir", dir)
	if code != 0 || !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+\n$`).MatchString(out) {
		t.Fatalf("world open %s: exit %d, stdout %q, stderr %q", name, code, out, stderr)
	}
	return strings.TrimSpace(out)
}

// `cdpvisor world open` prints the world's own endpoint alone, launching
// nothing; list shows it (table and JSON) with its path form; close closes
// its port at once.
func TestWorldOpenListClose(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	alice := worldOpen(t, dir, "alice")
	if again := worldOpen(t, dir, "alice"); again != alice || alice == s.endpoint {
		t.Fatalf("alice opened twice: %s then %s (endpoint %s)", alice, again, s.endpoint)
	}
	if b := s.browsers(); len(b) != 0 {
		t.Errorf("world open launched browsers %v", b)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, alice+"/json/version", &version)
	if !strings.HasPrefix(version.WebSocketDebuggerURL, strings.Replace(alice, "http", "ws", 1)+"/devtools/browser/") {
		t.Errorf("alice's /json/version names %q", version.WebSocketDebuggerURL)
	}
	out, _, code := runCLI(t, nil, "world", "list", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "WORLD") || !regexp.MustCompile(`alice\s+`+regexp.QuoteMeta(alice)+`\s+`+regexp.QuoteMeta(s.endpoint+"/context/alice")).MatchString(out) {
		t.Errorf("world list: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, nil, "world", "--state-dir", dir, "list", "--json")
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 || list[0].Endpoint != alice || list[0].PathEndpoint != s.endpoint+"/context/alice" {
		t.Errorf("world list --json: exit %d %v\n%s", code, err, out)
	}
	out, stderr, code := runCLI(t, nil, "world", "close", "alice", "--state-dir", dir)
	if code != 0 || !strings.Contains(out, "closed world alice") {
		t.Fatalf("world close alice: exit %d %q %q", code, out, stderr)
	}
	if port := strings.TrimPrefix(alice, "http://127.0.0.1:"); !portRefused(port) {
		t.Errorf("alice's port %s takes connections after world close", port)
	}
	if _, stderr, code := runCLI(t, nil, "world", "close", "alice", "--state-dir", dir); code != 1 || !strings.Contains(stderr, `unknown world "alice"`) {
		t.Errorf("closing a closed world: exit %d %q", code, stderr)
	}
	if again := worldOpen(t, dir, "alice"); again != alice {
		t.Errorf("alice made again at %s, want her port back: %s", again, alice)
	}
}

// What `cdpvisor world` refuses with exit 2, saying what to do: a bad
// name, no coordinator, an instance that runs Firefox.
func TestWorldRefusesBadInput(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"open", "no/such"}, []string{`invalid world name "no/such"`, "1 to 64 characters"}},
		{[]string{"open"}, []string{"needs a world's name", "cdpvisor world open NAME"}},
		{[]string{"frob"}, []string{`unknown world action "frob"`}},
		{[]string{"open", "alice"}, []string{"no running cdpvisor coordinator", "start one with 'cdpvisor mcp'", "'cdpvisor serve'"}},
		{[]string{"list", "x"}, []string{"takes no name"}},
	} {
		out, stderr, code := runCLI(t, nil, append([]string{"world", "--state-dir", empty}, c.args...)...)
		if code != 2 || out != "" {
			t.Errorf("world %v: exit %d, stdout %q, want 2 and nothing", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("world %v: %q does not say %q", c.args, stderr, w)
			}
		}
	}
	dir := t.TempDir()
	startServe(t, nil, "--state-dir", dir, "--browser", firefoxStandIn(t), "--log-level", "warn")
	out, stderr, code := runCLI(t, nil, "world", "open", "alice", "--state-dir", dir)
	if code != 2 || out != "" || !strings.Contains(stderr, "runs Firefox over WebDriver BiDi") || !strings.Contains(stderr, "--instance") {
		t.Errorf("world open on Firefox: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Another local user gets 403 on a world's port too, before anything is
// launched (as on the main port: TestServeServesItsOwnerOnly).
func TestWorldPortServesItsOwnerOnly(t *testing.T) {
	actortest.AsOtherUser(t)
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	alice := worldOpen(t, dir, "alice")
	why := fmt.Sprintf("serves uid 0 only; the connection came from uid %d", actortest.OtherUID)
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"/json/version":       actortest.AsOtherUserGet(t, alice+"/json/version"),
		"PUT /json/new":       actortest.AsOtherUserPut(t, alice+"/json/new?about:blank"),
		"/devtools/browser/x": actortest.AsOtherUserUpgrade(t, alice+"/devtools/browser/x"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
			t.Errorf("another user's %s on a world port: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, why)
		}
	}
	time.Sleep(200 * time.Millisecond) // a launch would have started by now
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("another user's requests on a world port launched browsers %v", b)
	}
	endpointAnswers(t, alice)
}

// A fresh world's port closes when its wrap is killed with SIGKILL: the
// lease ends, the world and its port with it.
func TestWrapKilledClosesItsWorldsPort(t *testing.T) {
	dir := t.TempDir()
	startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir)
	w := startWrap(t, "--state-dir", dir, "--isolate", "--", "sh", "-c", `echo "$CDP_PORT"; exec sleep 60`)
	port := strings.TrimSpace(w.firstLine(t))
	if portRefused(port) {
		t.Fatalf("the world's port %s refuses while its wrap runs", port)
	}
	if err := w.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = w.cmd.Wait() // reaped, as its host would: a zombie's pid still exists
	waitFor(t, "the killed wrap's world port to close", func() bool { return portRefused(port) })
}

// runningWrap is a wrap left running, its child's stdout read by line.
type runningWrap struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

// startWrap starts `cdpvisor wrap ARGS…` in a process group of its own,
// ended with the test.
func startWrap(t *testing.T, args ...string) *runningWrap {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"wrap"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the child too
		if cmd.ProcessState == nil {
			_ = cmd.Wait()
		}
	})
	return &runningWrap{cmd: cmd, lines: bufio.NewScanner(out)}
}

// firstLine is the child's first line of output.
func (w *runningWrap) firstLine(t *testing.T) string {
	t.Helper()
	if !w.lines.Scan() {
		t.Fatalf("the wrapped child printed nothing: %v", w.lines.Err())
	}
	return w.lines.Text()
}

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A target's devtoolsFrontendUrl from /json/list, opened in another
// Chrome, shows DevTools connected to that target through the endpoint:
// the frontend built into every Chrome (devtools://devtools/bundled/…; a
// browser on its debugging pipe serves no frontend files of its own), its
// websocket to /devtools/page/ID relayed with its devtools:// Origin.
func TestDevtoolsFrontendURLOpensThroughTheEndpoint(t *testing.T) {
	chromium := actortest.Chromium(t)
	clients := actortest.ClientsDir(t)
	stateDir := t.TempDir()
	if err := os.Chmod(stateDir, 0o700); err != nil { // private, as cdpvisor wants its state
		t.Fatal(err)
	}
	s := startServe(t, nil, "--browser", chromium, "--state-dir", stateDir)
	host := strings.TrimPrefix(s.endpoint, "http://")

	const marker = "cdpvisor-frontend-probe"
	code, body, _ := actortest.HTTPDo(t, http.MethodPut, s.endpoint+"/json/new?data:text/html,"+marker, "")
	var created struct{ ID string }
	if err := json.Unmarshal([]byte(body), &created); code != http.StatusOK || err != nil || created.ID == "" {
		t.Fatalf("PUT /json/new: %d %s", code, body)
	}
	var targets []struct{ ID, URL, DevtoolsFrontendURL string }
	getJSON(t, s.endpoint+"/json/list", &targets)
	i := slices.IndexFunc(targets, func(tg struct{ ID, URL, DevtoolsFrontendURL string }) bool { return tg.ID == created.ID })
	if i < 0 {
		t.Fatalf("the new target %s is not in /json/list: %+v", created.ID, targets)
	}
	frontend := targets[i].DevtoolsFrontendURL
	if want := "devtools://devtools/bundled/inspector.html?ws=" + host + "/devtools/page/" + created.ID; frontend != want {
		t.Fatalf("devtoolsFrontendUrl %q, want %q", frontend, want)
	}

	// A second, independent headless Chromium opens it, as a person would.
	tmp, err := os.MkdirTemp("", "pwt-") // its profile; short, for Chromium's socket paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	cmd := exec.Command("node", filepath.Join(clients, "devtools_frontend.mjs"), chromium, frontend, marker)
	cmd.Dir = clients
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "CLIENT_TIMEOUT_MS=90000")
	stderr := &actortest.SyncBuffer{}
	cmd.Stderr = stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var started []int // the node client and the browser it launched, with its helpers
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		for _, pid := range started {
			if actortest.Alive(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if t.Failed() {
			t.Logf("devtools_frontend.mjs stderr:\n%s", stderr.String())
		}
	})
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatalf("the client printed nothing: %v", cmd.Wait())
	}
	started = descendants(cmd.Process.Pid)
	var got struct {
		OK      bool
		Title   string
		Sockets []string
		Failed  []string
		Console []string
	}
	if err := json.Unmarshal(lines.Bytes(), &got); err != nil {
		t.Fatalf("client line %q: %v", lines.Text(), err)
	}
	t.Logf("frontend: %s", lines.Text())
	// The inspected page's URL came over its websocket: it is connected to
	// the target.
	if !got.OK {
		t.Fatalf("the frontend did not connect: title %q, failed requests %q, console errors %q", got.Title, got.Failed, got.Console)
	}
	if ws := "ws://" + host + "/devtools/page/" + created.ID; !slices.Contains(got.Sockets, ws) {
		t.Fatalf("the frontend's websockets %q, want %s through the endpoint", got.Sockets, ws)
	}
	if c := clientCount(t, s.endpoint); c != 1 {
		t.Fatalf("the endpoint has %d client connections while the frontend is open, want its websocket", c)
	}

	stdin.Close() // the client closes its browser
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the client: %v", err)
	}
	for end := time.Now().Add(10 * time.Second); clientCount(t, s.endpoint) != 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the frontend's websocket is still counted after its browser closed")
		}
	}
	for _, pid := range started {
		for end := time.Now().Add(5 * time.Second); actortest.Alive(pid); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("process %d (%s) of the second browser outlived it", pid, actortest.Cmdline(pid))
			}
		}
	}
	// Chromium's own scratch files (.org.chromium.Chromium.*) stay when the
	// client ends it by a signal, as Playwright's close does on a loaded
	// machine; anything else is a leak.
	left, _ := os.ReadDir(tmp)
	left = slices.DeleteFunc(left, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), ".org.chromium.Chromium.") })
	if len(left) != 0 {
		t.Fatalf("the second browser left %v in its temporary directory", left)
	}
}

// descendants lists pid's live descendants.
func descendants(pid int) []int {
	var out []int
	for _, c := range actortest.Children(pid) {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

// clientCount is the endpoint's number of client connections.
func clientCount(t *testing.T, endpoint string) int {
	t.Helper()
	var h struct{ Clients int }
	getJSON(t, endpoint+"/cdpvisor/health", &h)
	return h.Clients
}

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

func TestBrowsersListsChromium(t *testing.T) {
	actortest.Chromium(t)
	out, _, code := runCLI(t, nil, "browsers")
	if code != 0 || !strings.Contains(out, "chromium") || !strings.Contains(out, "/usr/bin/chromium") {
		t.Fatalf("browsers: code %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, nil, "browsers", "--json")
	var list []struct{ Name, Type, Path, Version string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("browsers --json: code %d, not JSON:\n%s", code, out)
	}
	found := false
	for _, b := range list {
		if b.Type == "chromium" && b.Path == "/usr/bin/chromium" && b.Version != "" {
			found = true
		}
	}
	if !found {
		t.Fatalf("chromium with a version missing from %s", out)
	}
}

func TestBrowsersListsFirefoxWithItsProtocol(t *testing.T) {
	firefox := actortest.Firefox(t)
	out, _, code := runCLI(t, nil, "browsers", "--json")
	var list []struct{ Name, Type, Path, Version, Channel, Protocol string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("browsers --json: code %d, not JSON:\n%s", code, out)
	}
	found := false
	for _, b := range list {
		if b.Type == "firefox" && b.Path == firefox && b.Protocol == "bidi" && b.Version != "" {
			found = true
		}
		if b.Type != "firefox" && b.Protocol != "cdp" {
			t.Errorf("%s %s listed with protocol %q, want cdp", b.Type, b.Path, b.Protocol)
		}
	}
	if !found {
		t.Fatalf("%s with protocol bidi and a version missing from %s", firefox, out)
	}
	out, _, code = runCLI(t, nil, "browsers")
	if code != 0 || !strings.Contains(out, "PROTOCOL") || !strings.Contains(out, "bidi") || !strings.Contains(out, firefox) {
		t.Fatalf("browsers: code %d:\n%s", code, out)
	}
}

// The endpoint exists before any browser; the first request launches one
// and the answer points back at the endpoint; SIGTERM leaves nothing.
func TestServeLaunchesLazilyAndCleansUp(t *testing.T) {
	chromium := actortest.Chromium(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--port", "0", "--browser", chromium, "--state-dir", stateDir)
	u, err := url.Parse(s.endpoint)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" {
		t.Fatalf("endpoint line %q is not http://127.0.0.1:PORT", s.endpoint)
	}
	time.Sleep(300 * time.Millisecond)
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("a browser runs before any client: %v", b)
	}
	states, _ := filepath.Glob(filepath.Join(stateDir, "*.json"))
	if len(states) != 2 {
		t.Fatalf("state files %v, want coordinator-<pid>.json and state.json", states)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	ws, err := url.Parse(version.WebSocketDebuggerURL)
	if err != nil || ws.Host != u.Host || !strings.HasPrefix(ws.Path, "/devtools/browser/") {
		t.Fatalf("webSocketDebuggerUrl %q does not point at the endpoint %s", version.WebSocketDebuggerURL, u.Host)
	}
	if b := s.browsers(); len(b) != 1 {
		t.Fatalf("want exactly one browser after the first request, got %v", b)
	}
	var list []struct{ Type, WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/list", &list)
	for _, target := range list {
		if target.WebSocketDebuggerURL != "" && !strings.Contains(target.WebSocketDebuggerURL, u.Host) {
			t.Errorf("target %s URL %q bypasses the endpoint", target.Type, target.WebSocketDebuggerURL)
		}
	}
	browser := s.browsers()[0]
	if err := s.stop(t); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM, want 0; stderr:\n%s", err, s.stderr.String())
	}
	if actortest.Alive(browser) {
		t.Errorf("browser %d still runs after serve exited", browser)
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
	if out := lines(s.stdout.String()); len(out) != 1 || out[0] != s.endpoint {
		t.Errorf("stdout %q: want exactly the endpoint line", s.stdout.String())
	}
}

// Real clients through the endpoint, across a kill -9 of the browser: a new
// connection and the ws URL handed out before the kill both work.
func TestServeRealClientsAcrossBrowserKill(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	for _, script := range []string{"puppeteer_connect.mjs", "playwright_connect.mjs"} {
		out, err := actortest.NodeScript(t, 60*time.Second, script, s.endpoint)
		if err != nil || !strings.Contains(out, `"result":2`) {
			t.Fatalf("%s: %v: %s", script, err, out)
		}
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	before := s.browsers()
	if len(before) != 1 {
		t.Fatalf("browsers %v, want one", before)
	}
	if err := syscall.Kill(before[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, before[0])
	for _, c := range []struct{ script, target string }{
		{"puppeteer_connect.mjs", s.endpoint},
		{"playwright_connect.mjs", version.WebSocketDebuggerURL}, // handed out before the kill
	} {
		out, err := actortest.NodeScript(t, 60*time.Second, c.script, c.target)
		if err != nil || !strings.Contains(out, `"result":2`) {
			t.Fatalf("%s %s after kill -9: %v: %s", c.script, c.target, err, out)
		}
	}
	after := s.browsers()
	if len(after) != 1 || after[0] == before[0] {
		t.Fatalf("browsers after the kill %v, want one new one", after)
	}
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); actortest.Alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("pid %d still alive", pid)
		}
	}
}

func TestServePortInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	stdout, stderr, code := runCLI(t, nil, "serve", "--port", fmt.Sprint(port), "--browser", os.Args[0], "--state-dir", t.TempDir())
	if code == 0 || !strings.Contains(stderr, "already in use") || !strings.Contains(stderr, "--port") {
		t.Fatalf("code %d, stderr %q: want non-zero and a message naming the port and --port", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
}

func TestServeRejectsBadInput(t *testing.T) {
	exe := os.Args[0] // any executable works as --browser PATH: nothing launches
	cases := []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"contradicting flags", nil, []string{"--headless", "--headed"}, 2, "contradict"},
		{"unknown flag", nil, []string{"--nope"}, 2, "unknown flag --nope"},
		{"bad log format", nil, []string{"--log-format", "xml"}, 2, "json or console"},
		{"bad log level", nil, []string{"--log-level", "loud"}, 2, "--log-level"},
		{"bad port", nil, []string{"--port", "70000"}, 2, "65535"},
		{"stray argument", nil, []string{"extra"}, 2, "unexpected argument"},
		{"bad env", []string{"CDPVISOR_PORT=abc"}, nil, 2, "CDPVISOR_PORT"},
		{"missing browser type", nil, []string{"--browser", "edge"}, 1, "found: chromium"},
		{"unknown browser word", nil, []string{"--browser", "opera"}, 1, "chrome, edge, chromium, brave, firefox"},
		{"missing browser path", nil, []string{"--browser", "/nonexistent/chrome"}, 1, "/nonexistent/chrome"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"serve", "--state-dir", t.TempDir()}, c.args...)
			if c.name == "contradicting flags" || strings.HasPrefix(c.name, "bad") || c.name == "stray argument" {
				args = append(args, "--browser", exe)
			}
			if c.name == "missing browser type" {
				actortest.Chromium(t)
			}
			stdout, stderr, code := runCLI(t, c.env, args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("code %d (want %d), stderr %q (want %q)", code, c.code, stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestServeReadsEnvironment(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	s := startServe(t, []string{fmt.Sprintf("CDPVISOR_PORT=%d", port), "CDPVISOR_STATE_DIR=" + dir, "CDPVISOR_BROWSER=" + os.Args[0], "CDPVISOR_LOG_FORMAT=json"})
	if s.endpoint != fmt.Sprintf("http://127.0.0.1:%d", port) {
		t.Fatalf("endpoint %q, want port %d from CDPVISOR_PORT", s.endpoint, port)
	}
	if _, err := os.Stat(filepath.Join(dir, "state.json")); err != nil {
		t.Fatalf("CDPVISOR_STATE_DIR ignored: %v", err)
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("exit %v", err)
	}
	for _, l := range lines(s.stderr.String()) {
		if l != "" && !json.Valid([]byte(l)) {
			t.Fatalf("CDPVISOR_LOG_FORMAT=json ignored: %q", l)
		}
	}
}

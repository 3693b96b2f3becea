package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

const testToken = "tok-4f1c9e0b7a"

// Issue 29: beyond loopback, serve refuses to start without a token.
func TestListenBeyondLoopbackRefusesWithoutAToken(t *testing.T) {
	cmd := exec.Command(binary, "serve", "--listen", "0.0.0.0:0", "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	cmd.Env = append(os.Environ(), "CDPVISOR_TOKEN=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "--token-file") {
		t.Fatalf("serve --listen 0.0.0.0:0 without a token: %v %q, want exit 2 naming --token-file", err, stderr.String())
	}
}

// With its token, every request but the probes needs it (401 without), by
// header or by query; Puppeteer works both ways; the token is in no log.
func TestListenWithATokenServesWhoGivesIt(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--listen", "0.0.0.0:0", "--token-file", tokenFile, "--browser", actortest.Chromium(t),
		"--state-dir", t.TempDir(), "--log-level", "debug")
	for _, path := range []string{"/json/version", "/json/list", "/health", "/metrics"} {
		if code, _, h := actortest.HTTPDo(t, http.MethodGet, s.endpoint+path, ""); code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s without the token: %d, want 401 asking for a bearer token", path, code)
		}
	}
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/json/version?token=wrong", ""); code != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d, want 401", code)
	}
	for _, path := range []string{"/health/live", "/health/ready"} {
		if code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+path, ""); code != http.StatusOK || strings.Contains(body, testToken) {
			t.Errorf("%s without the token: %d %q, want 200", path, code, body)
		}
	}
	for _, arg := range []string{"--token=" + testToken, "--token-query=" + testToken} {
		out, err := actortest.NodeScript(t, 60*time.Second, "puppeteer_connect.mjs", s.endpoint, arg)
		if err != nil || !strings.Contains(out, `"ok":true`) {
			t.Fatalf("puppeteer with %s: %v %s", strings.SplitN(arg, "=", 2)[0], err, out)
		}
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.done
	s.done <- nil
	if strings.Contains(s.stderr.String(), testToken) {
		t.Fatalf("the token is in serve's log:\n%s", s.stderr.String())
	}
}

// SIGTERM drains: /health/ready turns 503 within a second while a
// connected client keeps working; cdpvisor exits 0 once it leaves.
func TestSIGTERMDrainsConnectedClients(t *testing.T) {
	s := startServe(t, []string{"CDPVISOR_TOKEN=" + testToken}, "--listen", "0.0.0.0:0", "--browser", actortest.FakeBrowser(t),
		"--state-dir", t.TempDir(), "--drain-timeout", "30s")
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version?token="+testToken, &version)
	if !strings.HasSuffix(version.WebSocketDebuggerURL, "?token="+testToken) {
		t.Fatalf("webSocketDebuggerUrl %q does not carry the token its client gave in the query", version.WebSocketDebuggerURL)
	}
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	cl.Call(1, "Browser.getVersion", "", "")
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/health/ready", ""); code != http.StatusOK {
		t.Fatalf("ready before SIGTERM: %d", code)
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	start := time.Now()
	for {
		code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/health/ready", "")
		if code == http.StatusServiceUnavailable && strings.Contains(body, "draining") {
			break
		}
		if time.Since(start) > time.Second {
			t.Fatalf("ready %d %q a second after SIGTERM, want 503 draining", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cl.Call(2, "Browser.getVersion", "", "") // the connected client goes on
	select {
	case err := <-s.done:
		t.Fatalf("serve ended while a client was connected: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	cl.Conn.Close()
	select {
	case err := <-s.done:
		s.done <- nil
		if err != nil {
			t.Fatalf("serve after the drain: %v, want exit 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after its last client left")
	}
}

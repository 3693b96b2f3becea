package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Tests for the lifecycle defects a user trial found, each through the
// command line (the MCP tools' are in internal/mcptools).

// endpointAnswers checks that a client on the endpoint gets a browser.
func endpointAnswers(t *testing.T, endpoint string) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+"/json/version", "")
	if code != http.StatusOK || !strings.Contains(body, "webSocketDebuggerUrl") {
		t.Fatalf("%s/json/version: %d %s", endpoint, code, body)
	}
}

// A profile path that is not a usable directory is refused by serve,
// naming it, before any browser starts (the MCP tools' refusal is tested
// in internal/mcptools).
func TestServeRefusesAProfilePathThatIsNoDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := actortest.FakeBrowser(t)
	_, stderr, code := runCLI(t, nil, "serve", "--browser", fake, "--user-data-dir", file, "--state-dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, file) || !strings.Contains(stderr, "not a directory") {
		t.Fatalf("serve --user-data-dir <a file>: exit %d, stderr %q; want exit 2 naming the file", code, stderr)
	}
}

// A launch failure is one fact: logged once, with its cause, however many
// layers saw it.
func TestALaunchFailureIsLoggedOnce(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--log-format", "json", "--state-dir", t.TempDir(),
		"--browser-arg=--fake-exit-code=3", "--browser-arg=--fake-stderr-line=MARKER-launch-broke")
	if code, _, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/json/version", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("a demand on a browser that exits at once: %d, want 503", code)
	}
	time.Sleep(200 * time.Millisecond) // the log lines are written
	if n := strings.Count(s.stderr.String(), "MARKER-launch-broke"); n != 1 {
		t.Fatalf("the launch failure was logged %d times, want once:\n%s", n, s.stderr.String())
	}
}

package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// Tests for the lifecycle defects a user trial found, each
// through the public interface: the MCP tools or the command line.

// endpointAnswers checks that a client on the endpoint gets a browser.
func endpointAnswers(t *testing.T, endpoint string) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+"/json/version", "")
	if code != http.StatusOK || !strings.Contains(body, "webSocketDebuggerUrl") {
		t.Fatalf("%s/json/version: %d %s", endpoint, code, body)
	}
}

// Closing the default instance is refused, saying what to use instead, and
// the coordinator stays fully usable.
func TestClosingTheDefaultInstanceIsRefusedAndChangesNothing(t *testing.T) {
	h := newMCPHarness(t)
	def := h.defaultState()
	text, _ := h.call("browser_instance", map[string]any{"action": "close", "id": def.ID}, true)
	if !strings.Contains(text, "coordinator_stop_browser") || !strings.Contains(text, def.ID) {
		t.Fatalf("refusal %q does not name the instance and coordinator_stop_browser", text)
	}
	h.call("browser_instance", map[string]any{"action": "close", "id": fmt.Sprint(def.Port)}, true) // by port too
	if status, _ := h.call("coordinator_status", nil, false); !strings.Contains(status, def.ID) {
		t.Fatalf("status after the refused close: %q", status)
	}
	endpointAnswers(t, def.Endpoint)
	h.call("coordinator_launch_browser", map[string]any{}, false)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	endpointAnswers(t, created["endpoint"].(string))
}

// A launch that fails (a headed browser without a display) changes nothing
// later launches use: the next launch, restart and new instance work,
// headless, and status shows the failure and the mode.
func TestAFailedLaunchOptionDoesNotStick(t *testing.T) {
	chromium := actortest.Chromium(t)
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	h := newMCPHarnessOn(t, launch.Options{
		Browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium}, Headless: true,
	})
	text, _ := h.call("coordinator_launch_browser", map[string]any{"headless": false}, true)
	if !strings.Contains(text, "launch failed") {
		t.Fatalf("headed launch without a display: %q", text)
	}
	st := h.defaultState()
	if !st.Browser.Headless || st.Browser.LastLaunchError == "" || st.Browser.State != "idle" {
		t.Fatalf("status after the failed launch: headless=%v state=%s last launch error %q; want headless, idle, and the error",
			st.Browser.Headless, st.Browser.State, st.Browser.LastLaunchError)
	}
	_, launched := h.call("coordinator_launch_browser", map[string]any{}, false)
	if launched["headless"] != true {
		t.Fatalf("the launch after a failed headed one: %v, want headless", launched)
	}
	if st := h.defaultState(); st.Browser.LastLaunchError != "" {
		t.Fatalf("last launch error %q kept after a launch that worked", st.Browser.LastLaunchError)
	}
	h.call("coordinator_restart_browser", map[string]any{"force": true}, false)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	endpointAnswers(t, created["endpoint"].(string))
}

// A profile path that is not a usable directory is refused, naming it,
// before any browser starts; ~ and relative paths are resolved.
func TestBadProfilePathsAreRefusedBeforeAnyBrowserStarts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := actortest.FakeBrowser(t)
	_, stderr, code := runCLI(t, nil, "serve", "--browser", fake, "--user-data-dir", file, "--state-dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, file) || !strings.Contains(stderr, "not a directory") {
		t.Fatalf("serve --user-data-dir <a file>: exit %d, stderr %q; want exit 2 naming the file", code, stderr)
	}

	h := newMCPHarness(t)
	text, _ := h.call("coordinator_launch_browser", map[string]any{"user_data_dir": file}, true)
	if !strings.Contains(text, file) {
		t.Fatalf("launch on a file as profile: %q does not name it", text)
	}
	if st := h.defaultState(); st.Browser.Pid != 0 || st.Browser.Generation != 0 {
		t.Fatalf("a browser started for a bad profile: %+v", st.Browser)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	_, launched := h.call("coordinator_launch_browser", map[string]any{"user_data_dir": "~/profiles/agent"}, false)
	if want := filepath.Join(home, "profiles", "agent"); launched["user_data_dir"] != want {
		t.Fatalf("~/profiles/agent launched on %v, want %s", launched["user_data_dir"], want)
	}
	t.Chdir(dir)
	_, launched = h.call("coordinator_launch_browser", map[string]any{"user_data_dir": "rel"}, false)
	if want := filepath.Join(dir, "rel"); launched["user_data_dir"] != want {
		t.Fatalf("a relative profile launched on %v, want %s", launched["user_data_dir"], want)
	}
	h.call("coordinator_stop_browser", nil, false)
}

// The launch and restart texts count the clients asked to reconnect, and
// say nothing of them when there were none.
func TestRelaunchTextsCountTheClientsAskedToReconnect(t *testing.T) {
	h := newMCPHarness(t)
	text, data := h.call("coordinator_launch_browser", map[string]any{}, false)
	if strings.Contains(text, "reconnect") || data["reconnected_clients"] != float64(0) {
		t.Fatalf("with no client connected: %q %v", text, data)
	}
	cl := actortest.DialCDP(t, strings.Replace(h.defaultState().Endpoint, "http", "ws", 1)+"/devtools/browser")
	cl.Call(1, "Browser.getVersion", "", "")
	text, data = h.call("coordinator_restart_browser", map[string]any{"force": true}, false)
	if !strings.Contains(text, "1 connected client was asked to reconnect") || data["reconnected_clients"] != float64(1) {
		t.Fatalf("with one client connected: %q %v", text, data)
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

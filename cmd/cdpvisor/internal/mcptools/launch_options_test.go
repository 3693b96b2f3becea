package mcptools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// Tests for the lifecycle defects a user trial found, through the MCP
// tools (the command line's are in cmd/cdpvisor).

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

// A profile path that is not a usable directory is refused, naming it,
// before any browser starts; ~ and relative paths are resolved. (serve's
// refusal is tested in cmd/cdpvisor.)
func TestBadProfilePathsAreRefusedBeforeAnyBrowserStarts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
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

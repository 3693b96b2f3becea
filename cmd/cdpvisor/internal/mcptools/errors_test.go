package mcptools

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// A full instance port range, as browser_instance new says it.
func TestMCPInstancePortRangeFull(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	h := newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(cfg *actors.CoordinatorConfig) { cfg.InstancePorts = actors.PortRange{Lo: port, Hi: port} })
	text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true)
	if !strings.Contains(text, "no free port left in the coordinator's instance port range") || !strings.Contains(text, "pass another port outside that range") {
		t.Fatalf("%q", text)
	}
}

// Errors speak MCP: the tool, the argument to pass next, never a flag
// (call checks every error for "--" and its tool's name).
func TestMCPErrorsSpeakMCP(t *testing.T) {
	h := newMCPHarness(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defPort := h.c.Default().Proxy.Port()
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"browser_instance", map[string]any{"action": "new", "port": busyPort},
			[]string{fmt.Sprintf("browser_instance new: port %d on 127.0.0.1 is already in use", busyPort), "; pass another port, or leave port out for a free one, or stop what listens there"}},
		{"browser_instance", map[string]any{"action": "new", "port": defPort},
			[]string{fmt.Sprintf("port %d is the endpoint of %s", defPort, h.c.Default().ID), "leave port out"}},
		{"browser_instance", map[string]any{"action": "new", "port": 0}, []string{"port 0", "from 1 to 65535", "leave port out"}},
		{"browser_instance", map[string]any{"action": "new", "port": "9333"}, []string{`argument "port" must be an integer from 1 to 65535, not a string`}},
		{"browser_instance", map[string]any{"action": "new", "id": "x"}, []string{"browser_instance new: id is for get and close", "new takes type, browser, headless, port and download_dir"}},
		{"browser_instance", map[string]any{"action": "list", "port": 9333}, []string{"browser_instance list: port is for new", "list takes no other argument"}},
		{"browser_instance", map[string]any{"action": "get", "headless": true, "id": "x"}, []string{"headless is for new", "get takes id"}},
		{"browser_instance", map[string]any{}, []string{"browser_instance: action is required: new, list, get or close"}},
		{"browser_instance", map[string]any{"action": 3}, []string{`argument "action" must be a string: new, list, get or close, not a number`}},
		{"browser_instance", map[string]any{"action": "close"}, []string{"browser_instance close: needs id"}},
		{"browser_instance", map[string]any{"action": "close", "id": defPort}, []string{"default instance", "coordinator_stop_browser"}},
		{"browser_instance", map[string]any{"action": "get", "id": 1}, []string{"browser_instance get: unknown instance", "pass id as one of those ids or ports"}},
		{"coordinator_stop_browser", map[string]any{"instance": "inst_nope"}, []string{"unknown instance", "pass instance as one of those ids or ports, or leave instance out"}},
		{"coordinator_launch_browser", map[string]any{"user_data_dir": notDir}, []string{"not a directory", "leave user_data_dir out"}},
		{"coordinator_launch_browser", map[string]any{"args": []any{"--user-data-dir=/tmp/x"}}, []string{`the browser switch "user-data-dir" is cdpvisor's to set`, "pass the profile as user_data_dir instead"}},
		{"coordinator_launch_browser", map[string]any{"args": []any{"--remote-debugging-port=9"}}, []string{"clients connect to the stable endpoint (see coordinator_status)"}},
		{"coordinator_launch_browser", map[string]any{"args": "--lang=de"}, []string{`argument "args" must be an array of strings, not a string`}},
		{"coordinator_launch_browser", map[string]any{"browser": "/nonexistent/chrome"}, []string{"not an executable"}},
		{"coordinator_restart_browser", map[string]any{"force": "yes"}, []string{`argument "force" must be a boolean`}},
	}
	for _, c := range cases {
		text, _ := h.call(c.tool, c.args, true)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: %q does not say %q", c.tool, c.args, text, w)
			}
		}
	}
	// The coordinator's instance limit (3 here).
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true)
	for _, w := range []string{"browser_instance new: already 3 instances are open", "maximum this coordinator allows", "browser_instance close"} {
		if !strings.Contains(text, w) {
			t.Errorf("the limit: %q does not say %q", text, w)
		}
	}
}

package mcptools

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// A coordinator of at most one world per instance: browser_context open
// of a second one is refused naming the limit, with its fixes as a tool
// and the MCP host's setting (never a flag); the open one is still found,
// and once it closes another opens.
func TestMCPBrowserContextOpenPastMaxWorlds(t *testing.T) {
	h := newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(c *actors.CoordinatorConfig) { c.MaxWorlds = 1 })
	h.call("browser_context", map[string]any{"action": "open", "name": "alice"}, false)
	for _, args := range []map[string]any{
		{"action": "open", "name": "bob"},
		{"action": "open", "name": "bob", "allow_hosts": []string{"example.com"}},
		{"action": "open", "name": "bob", "storage_state": map[string]any{"cookies": []any{}, "origins": []any{}}},
	} {
		text, _ := h.call("browser_context", args, true)
		for _, want := range []string{"browser_context open: world bob: the instance has as many worlds open as it allows (1 open, at most 1)",
			"close one with browser_context close", "CDPVISOR_MAX_WORLDS"} {
			if !strings.Contains(text, want) {
				t.Errorf("%v: %q does not say %q", args, text, want)
			}
		}
	}
	if _, data := h.call("browser_context", map[string]any{"action": "open", "name": "alice"}, false); data["created"] != false {
		t.Errorf("alice, open, at the limit: %v; want her found", data)
	}
	h.call("browser_context", map[string]any{"action": "close", "name": "alice"}, false)
	if _, data := h.call("browser_context", map[string]any{"action": "open", "name": "bob"}, false); data["created"] != true {
		t.Errorf("bob once alice closed: %v; want him made", data)
	}
}

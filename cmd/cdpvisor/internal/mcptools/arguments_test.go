package mcptools

import (
	"fmt"
	"strings"
	"testing"
)

func TestMCPBadArguments(t *testing.T) {
	h := newMCPHarness(t)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"coordinator_launch_browser", map[string]any{"headless": "yes"}, "headless"},
		{"coordinator_launch_browser", map[string]any{"browser": "opera"}, "chrome, edge, chromium, brave, firefox"},
		{"coordinator_launch_browser", map[string]any{"colour": "red"}, "colour"},
		{"coordinator_stop_browser", map[string]any{"instance": "inst_nope"}, "unknown instance"},
		{"coordinator_restart_browser", map[string]any{"instance": "1"}, "unknown instance"},
		{"coordinator_launch_browser", map[string]any{"instance": "inst_nope"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "get"}, "needs id"},
		{"browser_instance", map[string]any{"action": "get", "id": "inst_nope"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "close", "id": "99999"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "fly"}, "new, list, get or close"},
		{"browser_instance", map[string]any{"action": "new", "port": 1.5}, "integer"},
	}
	for _, c := range cases {
		text, _ := h.call(c.tool, c.args, true)
		if !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %q does not mention %q", c.tool, c.args, text, c.want)
		}
	}
}

// Every tool refuses a key it does not know, naming it and the keys it
// accepts.
func TestMCPUnknownArgumentsRefused(t *testing.T) {
	h := newMCPHarness(t)
	accepts := map[string][]string{
		"coordinator_list_browsers":   nil,
		"coordinator_status":          nil,
		"coordinator_launch_browser":  {"type", "browser", "headless", "user_data_dir", "args", "instance"},
		"coordinator_stop_browser":    {"instance"},
		"coordinator_restart_browser": {"force", "instance"},
		"browser_instance":            {"action", "id", "type", "browser", "headless", "port"},
	}
	for tool, names := range accepts {
		text, _ := h.call(tool, map[string]any{"action": "list", "bogus": 1, "instanceId": "x"}, true)
		if tool == "browser_instance" {
			if !strings.Contains(text, `"bogus"`) || !strings.Contains(text, `"instanceId"`) {
				t.Errorf("%s: %q does not name both unknown keys", tool, text)
			}
		} else if !strings.Contains(text, `"bogus"`) {
			t.Errorf("%s: %q does not name the unknown key", tool, text)
		}
		if names == nil && !strings.Contains(text, "takes no arguments") {
			t.Errorf("%s: %q does not say it takes no arguments", tool, text)
		}
		for _, n := range names {
			if !strings.Contains(text, n) {
				t.Errorf("%s: %q does not list %s", tool, text, n)
			}
		}
	}
	if st := h.defaultState(); st.Browser.Generation != 0 {
		t.Fatalf("a refused call launched: %+v", st.Browser)
	}
}

// id and instance take an instance id or an endpoint port, as a string or
// a number, in every tool that takes one.
func TestMCPInstanceByNumberOrString(t *testing.T) {
	h := newMCPHarness(t)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id := created["id"].(string)
	port := int(created["port"].(float64))
	for _, ref := range []any{id, port, float64(port), fmt.Sprint(port), " " + id + " "} {
		if text, data := h.call("browser_instance", map[string]any{"action": "get", "id": ref}, false); data["id"] != id || !strings.Contains(text, id) {
			t.Fatalf("get %#v: %s %v", ref, text, data)
		}
	}
	// The lifecycle tools on that instance, by number and by string.
	_, launched := h.call("coordinator_launch_browser", map[string]any{"instance": port}, false)
	if launched["instance"] != id {
		t.Fatalf("launch by port %d launched %v", port, launched["instance"])
	}
	_, restarted := h.call("coordinator_restart_browser", map[string]any{"instance": id, "force": true}, false)
	if restarted["instance"] != id || restarted["generation"] != float64(2) {
		t.Fatalf("restart by id: %v", restarted)
	}
	if _, stopped := h.call("coordinator_stop_browser", map[string]any{"instance": port}, false); stopped["instance"] != id {
		t.Fatalf("stop by port: %v", stopped)
	}
	if def := h.defaultState(); def.Browser.Generation != 0 {
		t.Fatalf("the default instance was touched: %+v", def.Browser)
	}
	// The default one by its port as a number.
	defPort := h.c.Default().Proxy.Port()
	if _, data := h.call("coordinator_launch_browser", map[string]any{"instance": defPort}, false); data["instance"] != h.c.Default().ID {
		t.Fatalf("launch by the default port: %v", data)
	}
	h.call("browser_instance", map[string]any{"action": "close", "id": float64(port)}, false)
	h.call("browser_instance", map[string]any{"action": "get", "id": id}, true)
	// Numbers that are no port, and values that are no reference.
	for _, bad := range []any{1.5, 0, -3, 70000, true, []any{"x"}, map[string]any{"id": id}} {
		text, _ := h.call("coordinator_stop_browser", map[string]any{"instance": bad}, true)
		if !strings.Contains(text, `"instance"`) || !strings.Contains(text, "endpoint port") {
			t.Errorf("instance %#v: %s", bad, text)
		}
	}
	// null is as if it were left out: the default instance.
	if _, data := h.call("coordinator_stop_browser", map[string]any{"instance": nil}, false); data["instance"] != h.c.Default().ID {
		t.Fatalf("instance null: %v", data)
	}
}

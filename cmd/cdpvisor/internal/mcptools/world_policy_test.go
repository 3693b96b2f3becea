package mcptools

import (
	"strings"
	"testing"
)

// browser_context open takes a world's network policy; list shows it; it
// is changed by open again; a bad pattern, a policy for a world open
// without one, or one with another action is refused with nothing made.
func TestMCPBrowserContextOpenWithPolicy(t *testing.T) {
	h := newMCPHarness(t)
	text, data := h.call("browser_context", map[string]any{"action": "open", "name": "guarded",
		"allow_hosts": []any{"127.0.0.1:8080", "*.example.com"}, "deny_hosts": []any{"ads.example.com"}}, false)
	w, _ := data["world"].(map[string]any)
	pol, _ := w["policy"].(map[string]any)
	if data["created"] != true || pol == nil || len(pol["allow_hosts"].([]any)) != 2 || pol["deny_hosts"].([]any)[0] != "ads.example.com" {
		t.Fatalf("open with a policy: %s %v", text, data)
	}
	text, data = h.call("browser_context", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, "network policy: allow 127.0.0.1:8080, *.example.com; deny ads.example.com") {
		t.Errorf("list: %s", text)
	}
	_, data = h.call("browser_context", map[string]any{"action": "open", "name": "guarded", "allow_hosts": []any{"example.org"}}, false)
	w, _ = data["world"].(map[string]any)
	pol, _ = w["policy"].(map[string]any)
	if data["created"] != false || pol == nil || pol["allow_hosts"].([]any)[0] != "example.org" || pol["deny_hosts"] != nil {
		t.Errorf("the policy changed by its owner: %v", data)
	}
	h.call("browser_context", map[string]any{"action": "open", "name": "plain"}, false)
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"action": "open", "name": "bad", "allow_hosts": []any{"https://example.com/x"}, "deny_hosts": []any{"a*b"}},
			[]string{`allow: bad host pattern "https://example.com/x"`, `deny: bad host pattern "a*b"`, "nothing was made or changed"}},
		{map[string]any{"action": "open", "name": "plain", "deny_hosts": []any{"example.com"}},
			[]string{"a network policy or an upstream proxy is given at a world's making", `world "plain" is open without either`, "nothing was made or changed"}},
		{map[string]any{"action": "list", "allow_hosts": []any{"example.com"}}, []string{"allow_hosts and deny_hosts are a world's network policy, given with open, not list"}},
	} {
		text, _ := h.call("browser_context", c.args, true)
		for _, want := range c.want {
			if !strings.Contains(text, want) {
				t.Errorf("%v: %q does not say %q", c.args, text, want)
			}
		}
	}
	listed := h.worldsListed(map[string]any{"action": "list"})
	if _, made := listed["bad"]; made || len(listed) != 2 || listed["plain"]["policy"] != nil {
		t.Errorf("after the refusals: %v", listed)
	}
}

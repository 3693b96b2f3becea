package mcptools

import (
	"strings"
	"testing"
)

// browser_context open takes a world's network policy and folders; list
// shows them; the same again is fine, another is refused for a kept world
// (the harness keeps its named worlds) unless replace is true; a bad
// pattern or folder, folders or replace without a policy, a policy for a
// world open without one, or one with another action is refused with
// nothing made.
func TestMCPBrowserContextOpenWithPolicy(t *testing.T) {
	h := newMCPHarness(t)
	files := t.TempDir()
	open := map[string]any{"action": "open", "name": "guarded",
		"allow_hosts": []any{"127.0.0.1:8080", "*.example.com"}, "deny_hosts": []any{"ads.example.com"}, "allow_files": []any{files}}
	text, data := h.call("browser_context", open, false)
	w, _ := data["world"].(map[string]any)
	pol, _ := w["policy"].(map[string]any)
	if data["created"] != true || pol == nil || len(pol["allow_hosts"].([]any)) != 2 || pol["deny_hosts"].([]any)[0] != "ads.example.com" ||
		pol["allow_files"].([]any)[0] != files {
		t.Fatalf("open with a policy: %s %v", text, data)
	}
	text, data = h.call("browser_context", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, "network policy: allow 127.0.0.1:8080, *.example.com; deny ads.example.com; files from "+files) {
		t.Errorf("list: %s", text)
	}
	h.call("browser_context", open, false) // the same again
	text, _ = h.call("browser_context", map[string]any{"action": "open", "name": "guarded", "allow_hosts": []any{"example.org"}}, true)
	for _, want := range []string{"world guarded: it keeps another network policy with its profile: allow_hosts kept [127.0.0.1:8080 *.example.com], given [example.org]",
		"deny_hosts kept [ads.example.com], given none", "nothing was made or changed", "pass replace: true to replace the kept one"} {
		if !strings.Contains(text, want) {
			t.Errorf("another policy for a kept world: %q does not say %q", text, want)
		}
	}
	_, data = h.call("browser_context", map[string]any{"action": "open", "name": "guarded", "allow_hosts": []any{"example.org"}, "replace": true}, false)
	w, _ = data["world"].(map[string]any)
	pol, _ = w["policy"].(map[string]any)
	if data["created"] != false || pol == nil || pol["allow_hosts"].([]any)[0] != "example.org" || pol["deny_hosts"] != nil || pol["allow_files"] != nil {
		t.Errorf("the policy replaced by its owner: %v", data)
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
		{map[string]any{"action": "list", "allow_hosts": []any{"example.com"}}, []string{"allow_hosts, deny_hosts, allow_files and replace are a world's network policy, given with open, not list"}},
		{map[string]any{"action": "open", "name": "bad", "allow_files": []any{files}}, []string{"allow_files needs allow_hosts, deny_hosts or proxy"}},
		{map[string]any{"action": "open", "name": "bad", "replace": true}, []string{"replace replaces a kept world's network policy with the one given"}},
		{map[string]any{"action": "open", "name": "bad", "allow_hosts": []any{"example.com"}, "allow_files": []any{files + "/none"}},
			[]string{"allow_files " + files + "/none: " + files + "/none does not exist; make the folder first", "nothing was made or changed"}},
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

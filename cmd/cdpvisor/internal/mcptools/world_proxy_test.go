package mcptools

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// browser_context open takes a world's upstream proxy: the answer and list
// show it without its credentials; a proxy alone is no policy; an
// unreachable, malformed or empty one, or one with another action, is
// refused naming what is wrong (never the password) with nothing made.
func TestMCPBrowserContextOpenWithProxy(t *testing.T) {
	const pass = "mcp-proxy-pass-4e2a"
	h := newMCPHarness(t)
	up := actortest.StartHTTPProxy(t, "mcpuser", pass)
	text, data := h.call("browser_context", map[string]any{"action": "open", "name": "via", "proxy": up.URL("http")}, false)
	w, _ := data["world"].(map[string]any)
	pol, _ := w["policy"].(map[string]any)
	if data["created"] != true || pol == nil || pol["proxy"] != "http://***@"+up.Addr() || pol["allow_hosts"] != nil {
		t.Fatalf("open with a proxy: %s %v", text, data)
	}
	text, data = h.call("browser_context", map[string]any{"action": "list"}, false)
	all, _ := json.Marshal(data)
	if !strings.Contains(text, "upstream proxy http://***@"+up.Addr()) || strings.Contains(text, "network policy") ||
		strings.Contains(text+string(all), pass) || strings.Contains(text+string(all), "mcpuser") {
		t.Errorf("list: %s %s", text, all)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := ln.Addr().String()
	_ = ln.Close()
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"action": "open", "name": "gone", "proxy": "socks5://mcpuser:" + pass + "@" + gone},
			[]string{"the upstream proxy cannot be reached: socks5://***@" + gone, "nothing was made or changed"}},
		{map[string]any{"action": "open", "name": "bad", "proxy": "ftp://mcpuser:" + pass + "@127.0.0.1:21"},
			[]string{`proxy: not an upstream proxy URL: scheme "ftp" is not supported; want http://[user:pass@]host:port or socks5://[user:pass@]host:port`, "nothing was made or changed"}},
		{map[string]any{"action": "open", "name": "bad", "proxy": " "}, []string{"proxy is empty"}},
		{map[string]any{"action": "list", "proxy": up.URL("http")}, []string{"proxy is a world's upstream proxy, given with open, not list"}},
	} {
		text, _ := h.call("browser_context", c.args, true)
		for _, want := range c.want {
			if !strings.Contains(text, want) || strings.Contains(text, pass) {
				t.Errorf("%v: %q does not say %q (or holds the password)", c.args, text, want)
			}
		}
	}
	listed := h.worldsListed(map[string]any{"action": "list"})
	if len(listed) != 1 || listed["via"] == nil {
		t.Errorf("after the refusals: %v", listed)
	}
}

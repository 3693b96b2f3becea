package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The proxy's credentials: neither may appear in a log line or a list.
const (
	proxyUser = "proxyuser-7f3c"
	proxyPass = "proxypass-9d1e-secret"
)

// A world with --proxy pointing at a local upstream proxy with credentials,
// in real Chromium, driven by Playwright: its page (plain HTTP), its
// websocket (a CONNECT tunnel) and a newContext of its client's go through
// the upstream, which logs them; another world and the unprefixed endpoint
// load the same page without the upstream seeing anything. The credentials
// are in no line of the coordinator's stderr (at debug) and in no `world
// list` (table or JSON); an unreachable proxy is refused naming it and no
// world is left behind; a malformed one is refused before anything is sent.
func TestWorldProxyFromTheCommandLine(t *testing.T) {
	chromium := actortest.Chromium(t)
	site := proxySite(t)
	up := actortest.StartHTTPProxy(t, proxyUser, proxyPass)
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", chromium, "--state-dir", dir, "--log-level", "debug")

	out, stderr, code := runCLI(t, nil, "world", "open", "via", "--proxy", up.URL("http"), "--state-dir", dir)
	via := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(via, "http://127.0.0.1:") {
		t.Fatalf("world open --proxy: exit %d %q %q", code, out, stderr)
	}
	out, stderr, code = runCLI(t, nil, "world", "open", "other", "--state-dir", dir)
	other := strings.TrimSpace(out)
	if code != 0 {
		t.Fatalf("world open other: exit %d %q", code, stderr)
	}

	page, wsURL := site+"/page", "ws"+strings.TrimPrefix(site, "http")+"/ws"
	host := strings.TrimPrefix(site, "http://")
	got := proxyClient(t, via, page, wsURL)
	if got.Title != "proxied site" || got.WS != "echo: ping" || got.NewContext != "proxied site" {
		t.Fatalf("the world through its proxy: %+v", got)
	}
	for _, want := range []string{"GET " + page, "GET " + page + "?from=new-context", "CONNECT " + host} {
		if !up.Saw(want) {
			t.Errorf("the upstream did not log %q: %q", want, up.Log())
		}
	}
	seen := len(up.Log())
	for _, ep := range []string{other, s.endpoint} {
		if got := proxyClient(t, ep, page, wsURL); got.Title != "proxied site" || got.WS != "echo: ping" || got.NewContext != "proxied site" {
			t.Fatalf("%s: %+v", ep, got)
		}
	}
	if now := up.Log(); len(now) != seen {
		t.Errorf("another world or the unprefixed endpoint went through the upstream: %q", now[seen:])
	}

	// wrap --isolate=NAME --proxy gives the child's world the proxy: its
	// Playwright goes through a SOCKS5 upstream with credentials.
	socks := actortest.StartSOCKS5Proxy(t, proxyUser, proxyPass)
	out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate=agent", "--proxy", socks.URL("socks5"), "--",
		"node", filepath.Join(actortest.ClientsDir(t), "proxy_world.mjs"), "{cdp_endpoint}", page, wsURL)
	var viaSocks proxyAnswer
	if err := json.Unmarshal([]byte(out), &viaSocks); code != 0 || err != nil || viaSocks.Title != "proxied site" || viaSocks.WS != "echo: ping" ||
		viaSocks.NewContext != "proxied site" {
		t.Fatalf("wrap --isolate=agent --proxy socks5://…: exit %d %v, stdout %q, stderr %q", code, err, out, stderr)
	}
	if !socks.Saw("CONNECT "+host) || len(up.Log()) != seen {
		t.Errorf("the SOCKS5 upstream's log %q; the HTTP one's since %q", socks.Log(), up.Log()[seen:])
	}
	// The named world outlives the child, with its proxy.
	js, _, _ := runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(js), &list); err != nil {
		t.Fatalf("world list --json: %v %s", err, js)
	}
	for _, w := range list {
		if w.Name == "agent" && (w.Policy == nil || w.Policy.Proxy != "socks5://***@"+socks.Addr()) {
			t.Errorf("agent's proxy: %+v", w.Policy)
		}
	}

	// Unreachable and malformed proxies: refused, nothing made.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := ln.Addr().String()
	_ = ln.Close()
	out, stderr, code = runCLI(t, nil, "world", "open", "broken", "--proxy", "socks5://"+proxyUser+":"+proxyPass+"@"+gone, "--state-dir", dir)
	if code == 0 || out != "" || !strings.Contains(stderr, "the upstream proxy cannot be reached: socks5://***@"+gone) {
		t.Errorf("an unreachable proxy: exit %d %q %q", code, out, stderr)
	}
	for _, c := range []struct{ proxy, want string }{
		{"https://" + proxyUser + ":" + proxyPass + "@127.0.0.1:1", `--proxy: not an upstream proxy URL: scheme "https" is not supported; want http://[user:pass@]host:port or socks5://[user:pass@]host:port`},
		{proxyUser + ":" + proxyPass + "@127.0.0.1:1", "--proxy: not an upstream proxy URL: it has no scheme"},
	} {
		out, stderr, code := runCLI(t, nil, "world", "open", "bad", "--proxy", c.proxy, "--state-dir", dir)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) || strings.Contains(stderr, proxyPass) {
			t.Errorf("--proxy %s: exit %d %q %q", c.proxy, code, out, stderr)
		}
	}

	table, _, _ := runCLI(t, nil, "world", "list", "--state-dir", dir)
	js, _, _ = runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	if !strings.Contains(table, "via http://***@"+up.Addr()) || strings.Contains(table, "broken") || strings.Contains(table, "bad") {
		t.Errorf("world list:\n%s", table)
	}
	s.logged("guard") // the last lines read
	for what, text := range map[string]string{"world list": table, "world list --json": js, "the coordinator's stderr": s.stderr.String()} {
		if strings.Contains(text, proxyPass) || strings.Contains(text, proxyUser) {
			t.Errorf("%s holds the proxy's credentials:\n%s", what, text)
		}
	}
	if !strings.Contains(s.stderr.String(), "upstreamProxy=http://***@"+up.Addr()) {
		t.Errorf("the coordinator did not log the world's proxy (redacted):\n%s", s.stderr.String())
	}
}

// proxyAnswer is proxy_world.mjs's answer.
type proxyAnswer struct {
	Title      string `json:"title"`
	WS         string `json:"ws"`
	NewContext string `json:"newContext"`
}

func proxyClient(t *testing.T, endpoint, page, wsURL string) proxyAnswer {
	t.Helper()
	out, err := actortest.NodeScript(t, 90*time.Second, "proxy_world.mjs", endpoint, page, wsURL)
	var got proxyAnswer
	if err != nil || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("proxy_world.mjs %s: %v\n%s", endpoint, err, out)
	}
	return got
}

// proxySite is a local site: a page, and a websocket that echoes.
func proxySite(t *testing.T) string {
	var upgrader websocket.Upgrader
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ws" {
			c, err := upgrader.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			_, msg, err := c.ReadMessage()
			if err == nil {
				_ = c.WriteMessage(websocket.TextMessage, []byte("echo: "+string(msg)))
			}
			_, _, _ = c.ReadMessage() // until the page closes it
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>proxied site</title><p>hello")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A proxy for a world of an instance that runs Firefox is refused as a
// policy is (a world is a Chromium browser context), without the password.
func TestWorldProxyRefusedOnFirefox(t *testing.T) {
	dir := t.TempDir()
	startServe(t, nil, "--state-dir", dir, "--browser", firefoxStandIn(t), "--log-level", "warn")
	out, stderr, code := runCLI(t, nil, "world", "open", "alice", "--proxy", "http://"+proxyUser+":"+proxyPass+"@127.0.0.1:1", "--state-dir", dir)
	if code != 2 || out != "" || !strings.Contains(stderr, "runs Firefox over WebDriver BiDi") || strings.Contains(stderr, proxyPass) {
		t.Errorf("world open --proxy on Firefox: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

package worlds_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

const proxyPass = "s3cret-upstream-pass"

// The world requests carry an upstream proxy: PUT makes the world with it
// and answers it without its credentials, as GET lists it; a proxy alone
// is no policy (no host lists); a proxy that cannot be read or reached is
// refused naming what is wrong, never the password, and nothing is made.
func TestWorldRequestsCarryAProxy(t *testing.T) {
	f := newFixture(t)
	ep := f.inst.Proxy.Endpoint()
	up := actortest.StartHTTPProxy(t, "agent", proxyPass)
	ws, err := worldapi.OpenWith(f.context(), ep, "via", worldapi.OpenRequest{Policy: worldapi.Policy{Proxy: up.URL("http")}})
	if err != nil || !ws.Created || ws.Policy == nil || ws.Policy.Proxy != "http://***@"+up.Addr() || ws.Policy.Guarded() {
		t.Fatalf("PUT with a proxy: %+v %v", ws, err)
	}
	code, body := get(t, ep+worldapi.Path)
	if code != http.StatusOK || !strings.Contains(body, `"proxy": "http://***@`+up.Addr()+`"`) || strings.Contains(body, proxyPass) || strings.Contains(body, "agent") {
		t.Fatalf("GET: %d %s", code, body)
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := ln.Addr().String()
	_ = ln.Close()
	code, body = put(t, ep+worldapi.Path+"/unreachable", `{"proxy": "socks5://agent:`+proxyPass+`@`+gone+`", "allow_hosts": ["example.com"]}`)
	if code != http.StatusBadGateway || !strings.Contains(body, "the upstream proxy cannot be reached: socks5://***@"+gone) || strings.Contains(body, proxyPass) {
		t.Fatalf("an unreachable proxy: %d %s", code, body)
	}
	for in, says := range map[string]string{
		`{"proxy": "https://agent:` + proxyPass + `@127.0.0.1:1"}`: `scheme "https" is not supported; want http://[user:pass@]host:port or socks5://[user:pass@]host:port`,
		`{"proxy": "agent:` + proxyPass + `@127.0.0.1"}`:           "has no scheme",
		`{"proxy": "http://127.0.0.1"}`:                            "has no port",
	} {
		code, body = put(t, ep+worldapi.Path+"/bad", in)
		if code != http.StatusBadRequest || !strings.Contains(body, "proxy: not an upstream proxy URL: ") || !strings.Contains(body, says) || strings.Contains(body, proxyPass) {
			t.Fatalf("%s: %d %s", in, code, body)
		}
	}
	list, err := worldapi.List(f.context(), ep)
	if err != nil || len(list) != 1 || list[0].Name != "via" {
		t.Fatalf("after the refusals, a half-made world: %+v %v", list, err)
	}
	_, err = worldapi.OpenWith(f.context(), ep, "unreachable", worldapi.OpenRequest{Policy: worldapi.Policy{Proxy: "http://" + gone}})
	if !errors.Is(err, worldapi.ErrRefused) || !strings.Contains(err.Error(), "502") {
		t.Fatalf("the client's error: %v", err)
	}
}

// get fetches url: its status and answer.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A world with a proxy alone, closed and made again under its name by a
// client's first request, has its proxy again (as a policy); given again
// with a policy alone, the policy replaces both.
func TestProxyWorldMadeAgainKeepsItsProxy(t *testing.T) {
	f := newFixture(t)
	ep := f.inst.Proxy.Endpoint()
	up := actortest.StartSOCKS5Proxy(t, "", "")
	if _, err := worldapi.OpenWith(f.context(), ep, "p", worldapi.OpenRequest{Policy: worldapi.Policy{Proxy: up.URL("socks5")}}); err != nil {
		t.Fatal(err)
	}
	if err := f.inst.Worlds.Close(f.context(), "p"); err != nil {
		t.Fatal(err)
	}
	cl := f.world("p") // made again by a client's first request
	f.newPage(cl)
	info, err := f.inst.Worlds.Policy(f.context(), "p")
	if err != nil || info == nil || info.Proxy != "socks5://"+up.Addr() || len(info.AllowHosts) != 0 {
		t.Fatalf("made again: %+v %v", info, err)
	}
	ws, err := worldapi.OpenWith(f.context(), ep, "p", worldapi.OpenRequest{Policy: worldapi.Policy{AllowHosts: []string{"example.com"}}})
	if err != nil || ws.Created || ws.Policy == nil || ws.Policy.Proxy != "" || ws.Policy.AllowHosts[0] != "example.com" {
		t.Fatalf("given a policy alone: %+v %v", ws, err)
	}
}

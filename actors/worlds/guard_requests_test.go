package worlds_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// The world requests carry a network policy: PUT makes the world with it
// (and answers it), GET lists it, a second PUT with one replaces it; a bad
// pattern is refused with 400 naming it and nothing made; a world open
// without a policy is not given one.
func TestWorldRequestsCarryAPolicy(t *testing.T) {
	f := newFixture(t)
	ep := f.inst.Proxy.Endpoint()
	ws, err := worldapi.OpenWith(f.context(), ep, "guarded", worldapi.OpenRequest{Policy: worldapi.Policy{
		AllowHosts: []string{"example.com", "127.0.0.1:8080"}, DenyHosts: []string{"[::1]:9"}}})
	if err != nil || !ws.Created || ws.Policy == nil || len(ws.Policy.AllowHosts) != 2 || ws.Policy.DenyHosts[0] != "[::1]:9" || ws.Port == 0 {
		t.Fatalf("PUT with a policy: %+v %v", ws, err)
	}
	list, err := worldapi.List(f.context(), ep)
	if err != nil || len(list) != 1 || list[0].Policy == nil || list[0].Policy.AllowHosts[0] != "example.com" {
		t.Fatalf("GET: %+v %v", list, err)
	}
	ws, err = worldapi.OpenWith(f.context(), ep, "guarded", worldapi.OpenRequest{Policy: worldapi.Policy{DenyHosts: []string{"*.ads.example"}}})
	if err != nil || ws.Created || ws.Policy == nil || len(ws.Policy.AllowHosts) != 0 || ws.Policy.DenyHosts[0] != "*.ads.example" {
		t.Fatalf("PUT again with another policy: %+v %v", ws, err)
	}
	// Found without a policy in the request: it keeps its own.
	if ws, err := worldapi.Open(f.context(), ep, "guarded"); err != nil || ws.Policy == nil {
		t.Fatalf("PUT without a policy: %+v %v", ws, err)
	}

	code, body := put(t, ep+worldapi.Path+"/bad", `{"allow_hosts": ["https://example.com/"], "deny_hosts": ["*"]}`)
	if code != http.StatusBadRequest || !strings.Contains(body, `allow: bad host pattern "https://example.com/"`) || !strings.Contains(body, `deny: bad host pattern "*"`) {
		t.Fatalf("a bad pattern: %d %s", code, body)
	}
	code, body = put(t, ep+worldapi.Path+"/bad", `{"allow_hosts": "example.com"}`)
	if code != http.StatusBadRequest {
		t.Fatalf("allow_hosts not a list: %d %s", code, body)
	}
	f.openWorld("plain")
	_, err = worldapi.OpenWith(f.context(), ep, "plain", worldapi.OpenRequest{Policy: worldapi.Policy{AllowHosts: []string{"example.com"}}})
	if !errors.Is(err, worldapi.ErrRefused) || !strings.Contains(err.Error(), "a network policy or an upstream proxy is given at a world's making") {
		t.Fatalf("a policy for a world open without one: %v", err)
	}
	list, _ = worldapi.List(f.context(), ep)
	if len(list) != 2 || list[1].Name != "plain" || list[1].Policy != nil {
		t.Fatalf("after the refusals: %+v", list)
	}
}

// put sends a PUT with a JSON body: its status and answer.
func put(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A guarded world closed and made again under its name, by its first use
// at /context/NAME (a client reconnecting), has its policy again; a policy
// given at the new making replaces it.
func TestGuardedWorldMadeAgainKeepsItsPolicy(t *testing.T) {
	f := newFixture(t)
	ep := f.inst.Proxy.Endpoint()
	if _, err := worldapi.OpenWith(f.context(), ep, "g", worldapi.OpenRequest{Policy: worldapi.Policy{AllowHosts: []string{"example.com"}}}); err != nil {
		t.Fatal(err)
	}
	if err := f.inst.Worlds.Close(f.context(), "g"); err != nil {
		t.Fatal(err)
	}
	cl := f.world("g") // made again by a client's first request
	f.newPage(cl)
	info, err := f.inst.Worlds.Policy(f.context(), "g")
	if err != nil || info == nil || len(info.AllowHosts) != 1 || info.AllowHosts[0] != "example.com" {
		t.Fatalf("made again: %+v %v", info, err)
	}
	if err := f.inst.Worlds.Close(f.context(), "g"); err != nil {
		t.Fatal(err)
	}
	ws, err := worldapi.OpenWith(f.context(), ep, "g", worldapi.OpenRequest{Policy: worldapi.Policy{DenyHosts: []string{"ads.example"}}})
	if err != nil || !ws.Created || ws.Policy == nil || len(ws.Policy.AllowHosts) != 0 || ws.Policy.DenyHosts[0] != "ads.example" {
		t.Fatalf("made again with a policy of its own: %+v %v", ws, err)
	}
}

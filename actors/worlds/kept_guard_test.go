package worlds_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// newKeptFixture is a fixture whose named worlds are kept in the profiles
// directory dir, as a coordinator keeps them: a second one on the same dir
// is the coordinator started again.
func newKeptFixture(t *testing.T, dir string) *fixture {
	t.Helper()
	kept := profiles.New(profiles.Spec{Dir: dir, Log: served.Logger(t)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- kept.Serve(ctx) }()
	inst := served.StartInstanceKeeping(t, served.FakeLaunch(t), proxy.Spec{}, kept)
	t.Cleanup(func() { cancel(); <-done }) // after the instance's: cleanups run last first
	return &fixture{t: t, inst: inst, whole: inst.DialCDP(t), ids: 100}
}

// A kept world's policy, upstream proxy (its credentials too, in a private
// file) and folders are kept with its profile: a world made again by any
// caller (a request without a policy, a client's first use after a restart)
// is guarded as before, and a closed kept world is listed with its policy.
// The same policy again is fine; another is refused naming what differs,
// open or closed, unless replace; forget forgets it.
func TestKeptWorldKeepsItsPolicy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	files := t.TempDir()
	up := actortest.StartSOCKS5Proxy(t, "agent", proxyPass)
	f := newKeptFixture(t, dir)
	ep := f.inst.Proxy.Endpoint()
	given := worldapi.Policy{AllowHosts: []string{"example.com"}, Proxy: up.URL("socks5"), AllowFiles: []string{files}}
	ws, err := worldapi.OpenWith(f.context(), ep, "shop", worldapi.OpenRequest{Policy: given})
	if err != nil || !ws.Created || ws.Policy == nil || ws.Policy.AllowFiles[0] != files || ws.Policy.Proxy != "socks5://***@"+up.Addr() {
		t.Fatalf("PUT with a policy: %+v %v", ws, err)
	}
	file := filepath.Join(dir, "shop.policy.json")
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the kept policy's file: %v %v, want mode 0600", info, err)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), proxyPass) {
		t.Errorf("the kept policy has no credentials for its proxy: %s", data)
	}
	if err := f.inst.Worlds.Close(f.context(), "shop"); err != nil {
		t.Fatal(err)
	}
	ws, err = worldapi.Open(f.context(), ep, "shop") // made again without a policy
	if err != nil || ws.Policy == nil || ws.Policy.AllowHosts[0] != "example.com" || ws.Policy.Proxy != "socks5://***@"+up.Addr() {
		t.Fatalf("made again without a policy: %+v %v", ws, err)
	}

	// The coordinator started again on the same profiles.
	g := newKeptFixture(t, dir)
	ep = g.inst.Proxy.Endpoint()
	list, err := worldapi.List(g.context(), ep)
	if err != nil || len(list) != 1 || list[0].Open || !list[0].Kept || list[0].Policy == nil || list[0].Policy.AllowFiles[0] != files ||
		list[0].Policy.Proxy != "socks5://***@"+up.Addr() {
		t.Fatalf("a closed kept world's list: %+v %v", list, err)
	}
	g.newPage(g.world("shop")) // made again by a client's first use
	pol, err := g.inst.Worlds.Policy(g.context(), "shop")
	if err != nil || pol == nil || pol.AllowHosts[0] != "example.com" || pol.Proxy != "socks5://***@"+up.Addr() || pol.AllowFiles[0] != files {
		t.Fatalf("made again after a restart: %+v %v", pol, err)
	}

	other := worldapi.Policy{AllowHosts: []string{"example.org"}}
	for _, open := range []bool{true, false} {
		if !open {
			if err := g.inst.Worlds.Close(g.context(), "shop"); err != nil {
				t.Fatal(err)
			}
		}
		_, err = worldapi.OpenWith(g.context(), ep, "shop", worldapi.OpenRequest{Policy: other})
		if !errors.Is(err, worldapi.ErrPolicyKept) || !strings.Contains(err.Error(), "409") || strings.Contains(err.Error(), proxyPass) {
			t.Fatalf("another policy (open %v): %v", open, err)
		}
		for _, says := range []string{"world shop: it keeps another network policy with its profile", "allow_hosts kept [example.com], given [example.org]",
			"proxy kept socks5://***@" + up.Addr() + ", given none", "allow_files kept [" + files + "], given none", "unless replace is given"} {
			if !strings.Contains(err.Error(), says) {
				t.Errorf("another policy (open %v): %q does not say %q", open, err, says)
			}
		}
		ws, err = worldapi.OpenWith(g.context(), ep, "shop", worldapi.OpenRequest{Policy: given}) // the same again
		if err != nil || ws.Created == open || ws.Policy == nil || ws.Policy.AllowHosts[0] != "example.com" {
			t.Fatalf("the same policy again (open %v): %+v %v", open, ws, err)
		}
	}
	ws, err = worldapi.OpenWith(g.context(), ep, "shop", worldapi.OpenRequest{Policy: other, Replace: true})
	if err != nil || ws.Policy == nil || ws.Policy.AllowHosts[0] != "example.org" || ws.Policy.Proxy != "" || ws.Policy.AllowFiles != nil {
		t.Fatalf("replaced: %+v %v", ws, err)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), proxyPass) || !strings.Contains(string(data), "example.org") {
		t.Errorf("the kept policy after replace: %s", data)
	}
	code, body := put(t, ep+worldapi.Path+"/shop", `{"replace": true}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "replace replaces a kept world's network policy with the one given") {
		t.Errorf("replace alone: %d %s", code, body)
	}

	if _, err := worldapi.Forget(g.context(), ep, "shop"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("forgotten, its policy is still kept: %v", err)
	}
	if ws, err = worldapi.Open(g.context(), ep, "shop"); err != nil || ws.Policy != nil {
		t.Fatalf("forgotten and opened again: %+v %v", ws, err)
	}
}

// A kept world without a policy stays without one: made again it is
// unguarded, and open it cannot be given one; closed, it can (a new
// making). Folders without a guard are refused.
func TestUnguardedKeptWorldStaysUnguarded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	f := newKeptFixture(t, dir)
	ep := f.inst.Proxy.Endpoint()
	f.openWorld("plain")
	_, err := worldapi.OpenWith(f.context(), ep, "plain", worldapi.OpenRequest{Policy: worldapi.Policy{DenyHosts: []string{"ads.example"}}})
	if !errors.Is(err, worldapi.ErrRefused) || !strings.Contains(err.Error(), `world "plain" is open without either`) {
		t.Fatalf("a policy for an open unguarded world: %v", err)
	}
	if err := f.inst.Worlds.Close(f.context(), "plain"); err != nil {
		t.Fatal(err)
	}
	if ws, err := worldapi.Open(f.context(), ep, "plain"); err != nil || ws.Policy != nil {
		t.Fatalf("made again: %+v %v", ws, err)
	}
	if err := f.inst.Worlds.Close(f.context(), "plain"); err != nil {
		t.Fatal(err)
	}
	ws, err := worldapi.OpenWith(f.context(), ep, "plain", worldapi.OpenRequest{Policy: worldapi.Policy{DenyHosts: []string{"ads.example"}}})
	if err != nil || !ws.Created || ws.Policy == nil || ws.Policy.DenyHosts[0] != "ads.example" {
		t.Fatalf("a closed kept world without a policy given one: %+v %v", ws, err)
	}
	code, body := put(t, ep+worldapi.Path+"/files", `{"allow_files": ["`+t.TempDir()+`"]}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "allow_files needs allow_hosts, deny_hosts or proxy") {
		t.Errorf("folders without a guard: %d %s", code, body)
	}
	code, body = put(t, ep+worldapi.Path+"/files", `{"deny_hosts": ["a.example"], "allow_files": ["relative/none"]}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "allow_files relative/none: ") || !strings.Contains(body, "does not exist; make the folder first") {
		t.Errorf("a folder that does not exist: %d %s", code, body)
	}
}

// A kept policy that cannot be read (not a policy, a link, another
// user's) makes no world, by any path, and says which file; replace
// writes an unreadable file of the user's anew.
func TestKeptPolicyThatCannotBeReadMakesNoWorld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	f := newKeptFixture(t, dir)
	ep := f.inst.Proxy.Endpoint()
	if err := profiles.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.policy.json"), []byte(`{"allow_hosts": "x", "proxy": "http://u:`+proxyPass+`@h:1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "bad.policy.json"), filepath.Join(dir, "link.policy.json")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{"bad": "the policy file is not a world's network policy: " + filepath.Join(dir, "bad.policy.json"),
		"link": "the profile is not a file of yours: " + filepath.Join(dir, "link.policy.json")}
	if os.Geteuid() == 0 { // root can give a file to another user
		other := filepath.Join(dir, "other.policy.json")
		if err := os.WriteFile(other, []byte(`{"deny_hosts": ["a.example"]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, actortest.OtherUID, actortest.OtherUID); err != nil {
			t.Fatal(err)
		}
		cases["other"] = "the profile is not a file of yours: " + other
	}
	for name, says := range cases {
		_, err := worldapi.Open(f.context(), ep, name)
		if err == nil || !strings.Contains(err.Error(), "409") || !strings.Contains(err.Error(), says) || !strings.Contains(err.Error(), "so the world is not made") ||
			strings.Contains(err.Error(), proxyPass) {
			t.Errorf("world open %s: %v, want it to say %q", name, err, says)
		}
		code, body, _ := actortest.HTTPDo(t, http.MethodGet, ep+"/context/"+name+"/json/version", "")
		if code == http.StatusOK || !strings.Contains(body, says) {
			t.Errorf("the first use of %s: %d %s", name, code, body)
		}
	}
	list, err := worldapi.List(f.context(), ep)
	if err != nil || len(list) != 1 || list[0].Name != "bad" || list[0].Open || list[0].Policy != nil { // the others are not the user's files
		t.Errorf("listed: %+v %v", list, err)
	}
	ws, err := worldapi.OpenWith(f.context(), ep, "bad", worldapi.OpenRequest{Policy: worldapi.Policy{DenyHosts: []string{"a.example"}}, Replace: true})
	if err != nil || ws.Policy == nil || ws.Policy.DenyHosts[0] != "a.example" {
		t.Errorf("replaced: %+v %v", ws, err)
	}
}

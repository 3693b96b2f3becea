package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// A kept world's policy outlives its coordinator: `world open shop
// --allow-host 127.0.0.1:A --allow-file DIR` on real Chromium, Playwright
// in it reaches A and not B; the coordinator is killed (SIGKILL), a new one
// starts on the same state dir, and `world open shop` without a policy
// gives the world its policy back: B is still not reached (0 connections),
// and `world list --json` shows the policy, before the opening (closed,
// kept) and after. Another policy is refused saying --replace. `world close
// shop --forget` forgets it: opened again, the world reaches B.
func TestKeptWorldPolicyOutlivesAKilledCoordinator(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	a, b := startCountingSite(t, "A"), startCountingSite(t, "B")
	dir, files := t.TempDir(), t.TempDir()
	// Downloads of its own: the killed coordinator leaves its worlds' folders.
	serveArgs := []string{"--browser", chromium, "--state-dir", dir, "--download-dir", filepath.Join(t.TempDir(), "dl")}
	s := startServe(t, nil, serveArgs...)
	out, stderr, code := runCLI(t, nil, "world", "open", "shop", "--allow-host", a.HostPort(), "--allow-file", files, "--state-dir", dir)
	if code != 0 {
		t.Fatalf("world open shop --allow-host %s: exit %d %q", a.HostPort(), code, stderr)
	}
	if got := keptClient(t, strings.TrimSpace(out), a.URL, b.URL); got[0] != "ok A" || !strings.HasPrefix(got[1], "failed: ") || b.Conns.Load() != 0 {
		t.Fatalf("the guarded world: %q, B saw %d connection(s)", got, b.Conns.Load())
	}
	policyFile := filepath.Join(dir, "profiles", "shop.policy.json")
	if info, err := os.Stat(policyFile); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the kept policy's file: %v %v, want mode 0600", info, err)
	}

	if err := syscall.Kill(s.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not die of SIGKILL within 20 s")
	}
	startServe(t, nil, serveArgs...)
	if shop := keptWorld(t, dir); shop.Open || !shop.Kept || !guardedBy(shop.Policy, a.HostPort(), files) {
		t.Errorf("before it is opened again, world list --json: %+v %+v", shop, shop.Policy)
	}
	out, stderr, code = runCLI(t, nil, "world", "open", "shop", "--state-dir", dir)
	if code != 0 {
		t.Fatalf("world open shop after the restart: exit %d %q", code, stderr)
	}
	if got := keptClient(t, strings.TrimSpace(out), a.URL, b.URL); got[0] != "ok A" || !strings.HasPrefix(got[1], "failed: ") || b.Conns.Load() != 0 {
		t.Fatalf("the kept world after the restart: %q, B saw %d connection(s)", got, b.Conns.Load())
	}
	if shop := keptWorld(t, dir); !shop.Open || !guardedBy(shop.Policy, a.HostPort(), files) {
		t.Errorf("opened again, world list --json: %+v %+v", shop, shop.Policy)
	}
	_, stderr, code = runCLI(t, nil, "world", "open", "shop", "--allow-host", b.HostPort(), "--state-dir", dir)
	if code != 1 || !strings.Contains(stderr, "allow_hosts kept ["+a.HostPort()+"], given ["+b.HostPort()+"]") || !strings.Contains(stderr, "use --replace") {
		t.Errorf("another policy without --replace: exit %d %q", code, stderr)
	}

	if out, stderr, code := runCLI(t, nil, "world", "close", "shop", "--forget", "--state-dir", dir); code != 0 || !strings.Contains(out, "network policy are deleted") {
		t.Fatalf("world close shop --forget: exit %d %q %q", code, out, stderr)
	}
	if _, err := os.Stat(policyFile); err == nil {
		t.Errorf("forgotten, its policy's file is still there")
	}
	out, stderr, code = runCLI(t, nil, "world", "open", "shop", "--state-dir", dir)
	if code != 0 {
		t.Fatalf("world open shop after --forget: exit %d %q", code, stderr)
	}
	if got := keptClient(t, strings.TrimSpace(out), b.URL); got[0] != "ok B" || b.Conns.Load() == 0 {
		t.Errorf("forgotten and opened again: %q, B saw %d connection(s)", got, b.Conns.Load())
	}
	if shop := keptWorld(t, dir); shop.Policy != nil {
		t.Errorf("forgotten and opened again, world list --json: %+v", shop.Policy)
	}
}

// startCountingSite is a local site whose page is titled its name,
// counting every connection it gets (what the world reached of it).
func startCountingSite(t *testing.T, title string) *actortest.CountingServer {
	return actortest.StartCounting(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>%s</title><p>%s</p>", title, title)
	}))
}

// keptClient is kept_world.mjs on endpoint: each URL's outcome.
func keptClient(t *testing.T, endpoint string, urls ...string) []string {
	t.Helper()
	out, err := actortest.NodeScript(t, 90*time.Second, "kept_world.mjs", append([]string{endpoint}, urls...)...)
	var got []string
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || len(got) != len(urls) {
		t.Fatalf("kept_world.mjs %s: %v\n%s", endpoint, err, out)
	}
	return got
}

// keptWorld is world shop as `world list --json` shows it.
func keptWorld(t *testing.T, dir string) worldapi.Status {
	t.Helper()
	out, stderr, code := runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
		t.Fatalf("world list --json: exit %d %v %q", code, err, stderr)
	}
	for _, w := range list {
		if w.Name == "shop" {
			return w
		}
	}
	t.Fatalf("world list --json has no world shop: %s", out)
	return worldapi.Status{}
}

// guardedBy says p allows host alone and files' folder.
func guardedBy(p *worldapi.Policy, host, files string) bool {
	return p != nil && len(p.AllowHosts) == 1 && p.AllowHosts[0] == host && len(p.AllowFiles) == 1 && p.AllowFiles[0] == files
}

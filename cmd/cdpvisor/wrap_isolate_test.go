package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/leases"
)

// worldPageScript opens a page in the child's world through its endpoint,
// then prints what the child was given.
const worldPageScript = `curl -sf --noproxy '*' -X PUT "{cdp_endpoint}/json/new?about:blank" >/dev/null || exit 9; ` +
	`echo "$CDP_ENDPOINT $CDP_WS $CDP_PORT {cdp_endpoint} {cdp_ws} {cdp_port}"`

// wrap --isolate gives the child a world of its own: the placeholders and
// CDP_* variables carry the world's port (endpoint, websocket and port
// number alike); a fresh world is closed once wrap has ended (its page
// goes, its port closes), a named one stays with its page and its port.
func TestWrapIsolateGivesTheChildAWorld(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", fake, "--state-dir", dir, "--log-level", "debug")

	out, stderr, code := runWrapCLI(t, "--state-dir", dir, "--isolate", "--", "sh", "-c", worldPageScript)
	if code != 0 {
		t.Fatalf("wrap --isolate: code %d, stdout %q; stderr:\n%s", code, out, stderr)
	}
	fresh := regexp.MustCompile(`^http://127\.0\.0\.1:([0-9]+)$`)
	f := strings.Fields(out)
	m := fresh.FindStringSubmatch(f[0])
	named := regexp.MustCompile(`a world of its own, (agent-[a-z0-9]{8})`).FindStringSubmatch(stderr)
	if len(f) != 6 || m == nil || named == nil || "http://127.0.0.1:"+m[1] == s.endpoint {
		t.Fatalf("the child got %q, want a fresh world's own endpoint; stderr:\n%s", out, stderr)
	}
	wport, name := m[1], named[1]
	ws := fmt.Sprintf("ws://127.0.0.1:%s/devtools/browser", wport)
	if f[1] != ws || f[2] != wport || f[3] != f[0] || f[4] != ws || f[5] != wport {
		t.Fatalf("the child got %q; want endpoint, %s and port %s, as variables and placeholders", out, ws, wport)
	}
	if !strings.Contains(stderr, "closed once this wrap has ended") || strings.Contains(stderr, "WRN") {
		t.Errorf("wrap did not say which world, or warned: %s", stderr)
	}
	// wrap has ended: the coordinator closes the world (its page goes, its
	// port closes) and removes the lease.
	waitFor(t, "the fresh world's page to close", func() bool { return worldPages(t, s.endpoint) == 0 })
	waitFor(t, "the fresh world's port to close", func() bool { return portRefused(wport) })
	waitFor(t, "the lease to go", func() bool {
		left, _ := filepath.Glob(filepath.Join(leases.Dir(dir), "*"))
		return len(left) == 0
	})
	if !s.logged("world closed: the wrap that held it ended") || !s.logged(name) {
		t.Errorf("the coordinator did not log the close of %s", name)
	}

	// A named world outlives its child, with its port.
	out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate=keeper-1", "--", "sh", "-c", worldPageScript)
	f = strings.Fields(out)
	if code != 0 || len(f) != 6 || fresh.FindStringSubmatch(f[0]) == nil {
		t.Fatalf("wrap --isolate=keeper-1: code %d, stdout %q; stderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "it stays open after the command") {
		t.Errorf("wrap did not say the world stays: %s", stderr)
	}
	time.Sleep(3 * leases.DefaultEvery)
	if n := worldPages(t, s.endpoint); n != 1 {
		t.Errorf("%d world pages after the named world's child ended, want its 1", n)
	}
	// The variable says the same as the flag; the world's port is the same.
	out2, stderr, code := runCLI(t, []string{"CDPVISOR_ISOLATE=keeper-1"}, "wrap", "--state-dir", dir, "--", "sh", "-c", "echo $CDP_ENDPOINT")
	if code != 0 || strings.TrimSpace(out2) != f[0] {
		t.Errorf("CDPVISOR_ISOLATE=keeper-1: code %d, stdout %q, want %s; stderr:\n%s", code, out2, f[0], stderr)
	}
}

// portRefused says a connection to 127.0.0.1:port is refused.
func portRefused(port string) bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// worldPages counts the pages of the whole browser other than the one it
// started with (about:blank in the default context has no /context/ URL
// to tell it by, so: pages beyond the first).
func worldPages(t *testing.T, endpoint string) int {
	t.Helper()
	var list []struct{ Type string }
	getJSON(t, endpoint+"/json/list", &list)
	n := 0
	for _, p := range list {
		if p.Type == "page" {
			n++
		}
	}
	return n - 1
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// A bad world name is refused before anything starts (no coordinator is
// even looked for), as is --isolate on a Firefox instance.
func TestWrapIsolateRefusesBadNames(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--isolate=no/such"}},
		{nil, []string{"--isolate=" + strings.Repeat("a", 65)}},
		{nil, []string{"--isolate=.."}},
		{[]string{"CDPVISOR_ISOLATE=a b"}, nil},
	} {
		args := append(append([]string{"wrap", "--state-dir", empty, "--timeout", "5s"}, c.args...), "--", "sh", "-c", "echo started")
		start := time.Now()
		out, stderr, code := runCLI(t, c.env, args...)
		if code != 2 || out != "" || !strings.Contains(stderr, "invalid world name") || !strings.Contains(stderr, "1 to 64 characters") ||
			time.Since(start) > 3*time.Second {
			t.Errorf("%v %v: code %d (want 2), stdout %q, stderr %q, after %s", c.env, c.args, code, out, stderr, time.Since(start))
		}
	}
}

// With --standalone the child's world is on wrap's own coordinator.
func TestWrapIsolateStandalone(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	dir := t.TempDir()
	cmd := exec.Command(binary, "wrap", "--standalone", "--timeout", "200ms", "--state-dir", dir, "--browser", fake, "--isolate=solo",
		"--", "sh", "-c", worldPageScript)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wrap --standalone --isolate=solo: %v: %s", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) != 6 || !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(f[0]) ||
		f[1] != strings.Replace(f[0], "http", "ws", 1)+"/devtools/browser" || !strings.HasSuffix(f[0], ":"+f[2]) {
		t.Fatalf("the child got %q, want the world's own port", out)
	}
	// Nothing left but what a named world keeps: its profile, and the
	// journal of what its clients did, if they did anything.
	for _, e := range func() []os.DirEntry { left, _ := os.ReadDir(dir); return left }() {
		if e.Name() != "profiles" && e.Name() != "journal" {
			t.Errorf("left in the state dir: %s", e.Name())
		}
	}
	if journals, _ := filepath.Glob(filepath.Join(dir, "journal", "*")); len(journals) > 1 || (len(journals) == 1 && filepath.Base(journals[0]) != "solo.jsonl") {
		t.Errorf("journals: %v, want solo's alone, if any", journals)
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "profiles", "*")); len(kept) != 1 || filepath.Base(kept[0]) != "solo.storage-state.json" {
		t.Errorf("kept: %v, want solo's profile alone", kept)
	}
}

package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// serve --max-worlds 2: a third world is refused by every edge that makes
// one, naming the limit and what to do, in the command line's words: PUT
// and the lazy /context/NAME answer 429 with Retry-After, `world open` and
// `wrap --isolate` exit 1; an open world is still found, and once one
// closes the third opens.
func TestServeMaxWorldsRefusesTheThird(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir, "--max-worlds", "2")
	worldOpen(t, dir, "alice")
	ready(t, s, true, "")
	worldOpen(t, dir, "bob")
	// Full: the fleet's probe sends new agents elsewhere; the pressure says so.
	ready(t, s, false, "full: 2 worlds are open, the most it allows")
	if p := readPressure(t, s.endpoint); p.IsAvailable || p.Worlds != 2 || p.MaxWorlds != 2 {
		t.Errorf("pressure when full: %+v; want 2 worlds of at most 2, not available", p)
	}
	said := []string{"world carol: the instance has as many worlds open as it allows (2 open, at most 2)",
		"close one with `cdpvisor world close NAME`", "start the coordinator with a higher --max-worlds"}
	for _, url := range []string{s.endpoint + worldapi.Path + "/carol", s.endpoint + "/context/carol/json/version"} {
		method := http.MethodGet
		if strings.Contains(url, worldapi.Path) {
			method = http.MethodPut
		}
		code, body, header := actortest.HTTPDo(t, method, url, "")
		if code != http.StatusTooManyRequests || header.Get("Retry-After") != "5" {
			t.Errorf("%s %s: %d, Retry-After %q; want 429 and 5", method, url, code, header.Get("Retry-After"))
		}
		for _, w := range said {
			if !strings.Contains(body, w) {
				t.Errorf("%s %s: %q does not say %q", method, url, body, w)
			}
		}
	}
	out, stderr, code := runCLI(t, nil, "world", "open", "carol", "--state-dir", dir)
	if code != 1 || out != "" {
		t.Errorf("world open carol past the limit: exit %d, stdout %q; want 1 and nothing", code, out)
	}
	out, wrapErr, wrapCode := runWrapCLI(t, "--state-dir", dir, "--isolate", "--", "sh", "-c", "echo started")
	if wrapCode != 1 || strings.Contains(out, "started") {
		t.Errorf("wrap --isolate past the limit: exit %d, stdout %q; want 1, the command not run", wrapCode, out)
	}
	for _, w := range said[1:] {
		if !strings.Contains(stderr, w) || !strings.Contains(wrapErr, w) {
			t.Errorf("world open and wrap --isolate past the limit do not say %q:\n%s\n%s", w, stderr, wrapErr)
		}
	}
	if !strings.Contains(stderr, said[0]) || strings.Count(stderr, "--max-worlds") != 1 {
		t.Errorf("world open past the limit: %q; want the limit and its fixes said once", stderr)
	}
	worldOpen(t, dir, "alice") // found, not made
	if _, stderr, code := runCLI(t, nil, "world", "close", "bob", "--state-dir", dir); code != 0 {
		t.Fatalf("world close bob: exit %d %q", code, stderr)
	}
	ready(t, s, true, "") // room again: ready again
	if p := readPressure(t, s.endpoint); !p.IsAvailable || p.Worlds != 1 {
		t.Errorf("pressure after a close: %+v; want 1 world, available", p)
	}
	worldOpen(t, dir, "carol")
	ready(t, s, false, "full")
}

// ready asks serve's readiness probe: 200, or 503 saying why.
func ready(t *testing.T, s *served, want bool, why string) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/health/ready", "")
	if (code == http.StatusOK) != want || !strings.Contains(body, why) {
		t.Errorf("/health/ready: %d %q; want ready %v, saying %q", code, body, want, why)
	}
}

// A negative --max-worlds (or its variable) is a usage error, before
// anything starts.
func TestMaxWorldsNegativeIsRefused(t *testing.T) {
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"serve", "--max-worlds", "-1"}},
		{nil, []string{"mcp", "--max-worlds", "-1"}},
		{[]string{"CDPVISOR_MAX_WORLDS=-3"}, []string{"serve"}},
	} {
		out, stderr, code := runCLI(t, c.env, append(c.args, "--state-dir", t.TempDir(), "--browser", actortest.FakeBrowser(t))...)
		if code != 2 || out != "" || !strings.Contains(stderr, "--max-worlds -") || !strings.Contains(stderr, "want 0 (no limit) or more") {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want 2 and the flag's rule", c.env, c.args, code, out, stderr)
		}
	}
}

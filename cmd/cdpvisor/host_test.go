package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// An AI host runs `cdpvisor mcp` and two wrapped child MCPs
// (chrome-devtools-mcp and @playwright/mcp) on real Chromium: one browser
// serves both, both survive a coordinator_restart_browser, and nothing is
// left once the host closes the coordinator's stdin.
func TestHostWithWrappedChildMCPs(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	stateDir, work := t.TempDir(), t.TempDir()
	t.Setenv("CDPVISOR_STATE_DIR", stateDir)
	out, err := actortest.NodeScript(t, 3*time.Minute, "host_e2e.mjs", binary, chromium, work)
	if err != nil {
		t.Fatalf("host: %v: %s", err, out)
	}
	var res struct {
		OK      bool
		Status  struct{ Instances []statusInstance }
		Restart struct{ Instances []statusInstance }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("host output %q: %v", out, err)
	}
	if len(res.Status.Instances) != 1 {
		t.Fatalf("instances %+v, want one", res.Status.Instances)
	}
	st := res.Status.Instances[0]
	if st.Browser.State != "running" || st.Browser.Generation != 1 || st.Clients < 2 {
		t.Fatalf("status while both children browse: %+v; want one running browser (generation 1) serving both", st)
	}
	if g := res.Restart.Instances[0].Browser.Generation; g != 2 {
		t.Fatalf("generation %d after the restart, want 2", g)
	}
	// The coordinator is gone: no state file, and (checked for the whole
	// package by the leak check) no browser or temporary profile.
	time.Sleep(500 * time.Millisecond)
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Fatalf("state files left: %v", left)
	}
	if left := actortest.LeftoverFiles(os.TempDir()); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

type statusInstance struct {
	ID      string
	Clients int
	Browser struct {
		State      string
		Pid        int
		Generation int
	}
}

// An AI host runs `cdpvisor mcp` and four child MCPs, each wrapped with
// --isolate, on real Chromium: two chrome-devtools-mcp (--browserUrl={cdp_endpoint}, the world's port) and
// two @playwright/mcp, started at once, each opens its page and lists its
// pages, and none sees another's; the coordinator lists four worlds; the
// fresh worlds close once their children end, the named one stays and a
// new child in it finds its page.
func TestHostWithIsolatedChildMCPs(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	stateDir, work := t.TempDir(), t.TempDir()
	t.Setenv("CDPVISOR_STATE_DIR", stateDir)
	out, err := actortest.NodeScript(t, 4*time.Minute, "worlds_isolate.mjs", binary, chromium, work)
	if err != nil {
		t.Fatalf("host: %v: %s", err, out)
	}
	var res struct {
		OK     bool
		Worlds []struct {
			Name         string
			Endpoint     string
			PathEndpoint string `json:"path_endpoint"`
			Port         int
			Clients      int
			Pages        int
		}
		Status struct {
			Instances []struct {
				Endpoint string
				Worlds   []struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("host output %q: %v", out, err)
	}
	fresh := 0
	for _, w := range res.Worlds {
		if strings.HasPrefix(w.Name, "agent-") {
			fresh++
		}
		if w.Clients < 1 || w.Pages < 1 || w.Port == 0 || w.Endpoint != fmt.Sprintf("http://127.0.0.1:%d", w.Port) || !strings.HasSuffix(w.PathEndpoint, "/context/"+w.Name) {
			t.Errorf("world %+v: want a client and a page, at its own port and at /context/NAME", w)
		}
	}
	if len(res.Worlds) != 4 || fresh != 3 {
		t.Errorf("worlds while the children browsed: %+v, want 3 fresh and pw-named", res.Worlds)
	}
	if len(res.Status.Instances) != 1 || len(res.Status.Instances[0].Worlds) != 4 {
		t.Errorf("coordinator_status: %+v, want one instance with 4 worlds", res.Status)
	}
	time.Sleep(500 * time.Millisecond)
	// Nothing left but what the worlds keep: the named one's profile, and
	// the journals of what their clients did.
	left, _ := filepath.Glob(filepath.Join(stateDir, "*"))
	for _, p := range left {
		if b := filepath.Base(p); b != "profiles" && b != "journal" {
			t.Fatalf("state files left: %v", left)
		}
	}
	if kept, _ := filepath.Glob(filepath.Join(stateDir, "profiles", "*")); len(kept) > 1 {
		t.Fatalf("profiles kept: %v, want the named world's alone", kept)
	}
}

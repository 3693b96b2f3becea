package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

func TestStatusShowsCoordinatorsInstancesAndBrowsers(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", fake, "--state-dir", stateDir)
	// A stale file of a coordinator long gone, shown as such.
	stale, _ := json.Marshal(state.File{Port: 1, PID: 999999999})
	if err := os.WriteFile(filepath.Join(stateDir, "coordinator-999999999.json"), stale, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, nil, "status", "--state-dir", stateDir)
	if code != 0 || !strings.Contains(out, s.endpoint) || !strings.Contains(out, "idle") || !strings.Contains(out, "stale") {
		t.Fatalf("status before any client: %d\n%s", code, out)
	}
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	out, _, code = runCLI(t, nil, "status", "--json", "--state-dir", stateDir)
	var list []state.CoordinatorStatus
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("status --json: %d %q", code, out)
	}
	var live *state.CoordinatorStatus
	for i := range list {
		if list[i].Live {
			live = &list[i]
		}
	}
	if live == nil || live.PID != s.cmd.Process.Pid || len(live.Instances) != 1 {
		t.Fatalf("status %+v", list)
	}
	b := live.Instances[0].Browser
	if b == nil || b.State != "running" || b.Pid != s.browsers()[0] || b.Generation != 1 {
		t.Fatalf("browser %+v, want running pid %v", b, s.browsers())
	}
	if fmt.Sprint(live.Instances[0].Endpoint) != s.endpoint {
		t.Fatalf("endpoint %s, want %s", live.Instances[0].Endpoint, s.endpoint)
	}
}

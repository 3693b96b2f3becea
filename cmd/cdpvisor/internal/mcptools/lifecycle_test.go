package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

func TestMCPStatusBeforeAndAfterLaunch(t *testing.T) {
	h := newMCPHarness(t)
	text, data := h.call("coordinator_status", nil, false)
	if !strings.Contains(text, "idle") || !strings.Contains(text, h.c.Default().Proxy.Endpoint()) || data["instances"] == nil {
		t.Fatalf("status before launch: %s", text)
	}
	h.call("coordinator_launch_browser", map[string]any{}, false)
	text, _ = h.call("coordinator_status", nil, false)
	st := h.defaultState()
	if st.Browser.State != "running" || st.Browser.Pid == 0 || !strings.Contains(text, fmt.Sprint(st.Browser.Pid)) {
		t.Fatalf("status after launch: %s / %+v", text, st)
	}
}

// coordinator_status is `cdpvisor status --json` for this coordinator:
// the same fields, the same values.
func TestMCPStatusIsStatusJSON(t *testing.T) {
	h := newMCPHarness(t)
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	h.call("coordinator_launch_browser", nil, false)
	res := h.callResult("coordinator_status", nil)
	raw, _ := json.Marshal(res.StructuredContent)
	var got state.CoordinatorStatus
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("structured content %s is not a state.CoordinatorStatus: %v", raw, err)
	}
	var list []state.CoordinatorStatus
	for _, c := range state.Collect(context.Background(), filepath.Dir(h.c.StatePath()), zerolog.Nop()) {
		if c.PID == os.Getpid() {
			list = append(list, c)
		}
	}
	if len(list) != 1 {
		t.Fatalf("status --json sees %d coordinators of this process", len(list))
	}
	want := list[0]
	if got.PID != want.PID || got.PPID != want.PPID || !got.StartedAt.Equal(want.StartedAt) || got.Version != want.Version ||
		got.StateFile != want.StateFile || got.Live != want.Live || !got.Live || len(got.Instances) != 2 || len(want.Instances) != 2 {
		t.Fatalf("coordinator_status %+v\nstatus --json %+v", got, want)
	}
	for i := range got.Instances {
		g, w := got.Instances[i], want.Instances[i]
		if g.ID != w.ID || g.Endpoint != w.Endpoint || g.Port != w.Port || g.Clients != w.Clients || g.DownloadDir == "" || g.DownloadDir != w.DownloadDir ||
			g.Browser == nil || w.Browser == nil || g.Browser.State != w.Browser.State || g.Browser.Pid != w.Browser.Pid {
			t.Errorf("instance %d: coordinator_status %+v, status --json %+v", i, g, w)
		}
		// Both tell its pressure, as GET /cdpvisor/pressure does.
		for side, raw := range map[string]json.RawMessage{"coordinator_status": g.Pressure, "status --json": w.Pressure} {
			var p struct {
				Instance    string `json:"instance"`
				MaxLoads    *int   `json:"max_loads"`
				IsAvailable *bool  `json:"is_available"`
			}
			if err := json.Unmarshal(raw, &p); err != nil || p.Instance != g.ID || p.MaxLoads == nil || *p.MaxLoads < 1 || p.IsAvailable == nil || !*p.IsAvailable {
				t.Errorf("instance %d: %s's pressure %s (%v)", i, side, raw, err)
			}
		}
	}
	if got.Instances[0].Browser.State != "running" || got.Instances[0].UptimeSeconds < 0 {
		t.Errorf("default instance %+v", got.Instances[0])
	}
	// Both carry the same keys.
	var gotKeys, wantKeys map[string]any
	_ = json.Unmarshal(raw, &gotKeys)
	wantRaw, _ := json.Marshal(want)
	_ = json.Unmarshal(wantRaw, &wantKeys)
	if fmt.Sprint(slices.Sorted(maps.Keys(gotKeys))) != fmt.Sprint(slices.Sorted(maps.Keys(wantKeys))) {
		t.Errorf("keys %v, status --json %v", slices.Sorted(maps.Keys(gotKeys)), slices.Sorted(maps.Keys(wantKeys)))
	}
	text, _ := h.call("coordinator_status", nil, false)
	if !strings.Contains(text, fmt.Sprintf("coordinator pid %d", os.Getpid())) || !strings.Contains(text, h.c.StatePath()) ||
		instanceLines(text) != 2 {
		t.Errorf("readable status %q", text)
	}
}

func TestMCPLaunchSwitchClosesClientsWith1012(t *testing.T) {
	h := newMCPHarness(t)
	ws := strings.Replace(h.c.Default().Proxy.Endpoint(), "http", "ws", 1) + "/devtools/browser"
	conn, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	profile := t.TempDir()
	h.call("coordinator_launch_browser", map[string]any{"user_data_dir": profile, "args": []any{"--fake-start-delay=10ms"}}, false)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err = conn.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 1012 {
		t.Fatalf("client saw %v, want close 1012", err)
	}
	st := h.defaultState()
	if st.Browser.Generation != 2 || st.Browser.UserDataDir != profile {
		t.Fatalf("after the switch: %+v", st.Browser)
	}
	// The endpoint is the same; a reconnect works.
	conn2, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	conn2.Close()
}

func TestMCPRestartGuardAndOptionsReuse(t *testing.T) {
	h := newMCPHarness(t)
	profile := t.TempDir()
	h.call("coordinator_launch_browser", map[string]any{"user_data_dir": profile}, false)
	text, _ := h.call("coordinator_restart_browser", nil, true)
	if !strings.Contains(text, "force") || !strings.Contains(text, "thrash") {
		t.Fatalf("refusal %q does not explain itself", text)
	}
	if g := h.defaultState().Browser.Generation; g != 1 {
		t.Fatalf("a refused restart restarted (generation %d)", g)
	}
	h.call("coordinator_restart_browser", map[string]any{"force": true}, false)
	st := h.defaultState()
	if st.Browser.Generation != 2 || st.Browser.UserDataDir != profile {
		t.Fatalf("restart did not reuse the last launch's options: %+v", st.Browser)
	}
}

func TestMCPStop(t *testing.T) {
	h := newMCPHarness(t)
	h.call("coordinator_launch_browser", nil, false)
	pid := h.defaultState().Browser.Pid
	h.call("coordinator_stop_browser", nil, false)
	if st := h.defaultState(); st.Browser.State != "idle" || actortest.Alive(pid) {
		t.Fatalf("after stop: %+v, pid alive %v", st.Browser, actortest.Alive(pid))
	}
	// The endpoint stays and launches again on demand.
	resp, err := http.Get(h.c.Default().Proxy.Endpoint() + "/json/version")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after stop: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestMCPLaunchReportsProgress(t *testing.T) {
	h := newMCPHarness(t)
	req := mcp.CallToolRequest{}
	req.Params.Name = "coordinator_launch_browser"
	req.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	if _, err := h.client.CallTool(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	count := func() int { // notifications may trail the result
		h.mu.Lock()
		defer h.mu.Unlock()
		n := 0
		for _, note := range h.notes {
			if note.Method == "notifications/progress" && note.Params.AdditionalFields["progressToken"] == "p1" {
				n++
			}
		}
		return n
	}
	for end := time.Now().Add(2 * time.Second); count() < 2 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := count(); n < 2 {
		t.Fatalf("%d progress notifications, want at least 2 (launching, ready)", n)
	}
}

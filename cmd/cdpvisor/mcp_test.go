package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// mcpHarness is a coordinator on the fake browser with an in-process
// mcp-go client talking to the tools.
type mcpHarness struct {
	t      *testing.T
	c      *actors.Coordinator
	client *client.Client
	mu     sync.Mutex
	notes  []mcp.JSONRPCNotification
}

func newMCPHarness(t *testing.T, fakeArgs ...string) *mcpHarness {
	t.Helper()
	return newMCPHarnessOn(t, chrome.LaunchOptions{
		Browser:  chrome.Browser{Name: "Fake", Type: chrome.Chromium, Path: chrometest.FakeBrowser(t)},
		Headless: true, ExtraArgs: fakeArgs, StopGrace: time.Second,
	})
}

// newMCPHarnessOn is the harness with a coordinator launching as launch says.
func newMCPHarnessOn(t *testing.T, launch chrome.LaunchOptions) *mcpHarness {
	t.Helper()
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)
	c, err := actors.NewCoordinator(actors.CoordinatorConfig{
		Launch: launch, StateDir: t.TempDir(), MaxInstances: 3, Version: version, Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	h := &mcpHarness{t: t, c: c}
	h.client, err = client.NewInProcessClient(newMCPServer(c, log))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.client.Close()
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("coordinator: %v", err)
		}
	})
	h.client.OnNotification(func(n mcp.JSONRPCNotification) {
		h.mu.Lock()
		h.notes = append(h.notes, n)
		h.mu.Unlock()
	})
	if err := h.client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := h.client.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return h
}

// call invokes a tool; wantError says whether an isError result is expected.
func (h *mcpHarness) call(name string, args map[string]any, wantError bool) (string, map[string]any) {
	h.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := h.client.CallTool(ctx, req)
	if err != nil {
		h.t.Fatalf("%s: protocol error %v", name, err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError != wantError {
		h.t.Fatalf("%s %v: isError=%v, want %v: %s", name, args, res.IsError, wantError, text)
	}
	var data map[string]any
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &data)
	}
	return text, data
}

func (h *mcpHarness) defaultState() actors.InstanceStatus {
	st, err := h.c.Status(context.Background())
	if err != nil || len(st) == 0 {
		h.t.Fatalf("status: %v %v", st, err)
	}
	return st[0]
}

func TestMCPListsItsTools(t *testing.T) {
	h := newMCPHarness(t)
	res, err := h.client.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"coordinator_list_browsers", "coordinator_status", "coordinator_launch_browser",
		"coordinator_stop_browser", "coordinator_restart_browser", "browser_instance"} {
		if !strings.Contains(strings.Join(names, ","), want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}
}

func TestMCPListBrowsers(t *testing.T) {
	chrometest.Chromium(t)
	h := newMCPHarness(t)
	text, data := h.call("coordinator_list_browsers", nil, false)
	if !strings.Contains(text, "/usr/bin/chromium") || data["browsers"] == nil {
		t.Fatalf("%s %v", text, data)
	}
}

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

func TestMCPBadArguments(t *testing.T) {
	h := newMCPHarness(t)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"coordinator_launch_browser", map[string]any{"headless": "yes"}, "headless"},
		{"coordinator_launch_browser", map[string]any{"browser": "firefox"}, "chrome, edge, chromium, brave"},
		{"coordinator_launch_browser", map[string]any{"colour": "red"}, "colour"},
		{"coordinator_stop_browser", map[string]any{"instance": "inst_nope"}, "unknown instance"},
		{"coordinator_restart_browser", map[string]any{"instance": "1"}, "unknown instance"},
		{"coordinator_launch_browser", map[string]any{"instance": "inst_nope"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "get"}, "needs id"},
		{"browser_instance", map[string]any{"action": "get", "id": "inst_nope"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "close", "id": "99999"}, "unknown instance"},
		{"browser_instance", map[string]any{"action": "fly"}, "new, list, get or close"},
		{"browser_instance", map[string]any{"action": "new", "port": 1.5}, "integer"},
	}
	for _, c := range cases {
		text, _ := h.call(c.tool, c.args, true)
		if !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %q does not mention %q", c.tool, c.args, text, c.want)
		}
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
	if st := h.defaultState(); st.Browser.State != "idle" || chrometest.Alive(pid) {
		t.Fatalf("after stop: %+v, pid alive %v", st.Browser, chrometest.Alive(pid))
	}
	// The endpoint stays and launches again on demand.
	resp, err := http.Get(h.c.Default().Proxy.Endpoint() + "/json/version")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after stop: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestMCPInstances(t *testing.T) {
	h := newMCPHarness(t)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id, _ := created["id"].(string)
	port := int(created["port"].(float64))
	if !strings.HasPrefix(id, "inst_") || port == h.c.Default().Proxy.Port() {
		t.Fatalf("new instance %v", created)
	}
	text, _ := h.call("browser_instance", map[string]any{"action": "list"}, false)
	if strings.Count(text, "inst_") != 2 {
		t.Fatalf("list: %s", text)
	}
	for _, ref := range []string{id, fmt.Sprint(port)} {
		if text, _ := h.call("browser_instance", map[string]any{"action": "get", "id": ref}, false); !strings.Contains(text, id) {
			t.Fatalf("get %s: %s", ref, text)
		}
	}
	// Its own endpoint launches its own browser.
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("new instance endpoint: %v %v", resp, err)
	}
	resp.Body.Close()
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	if text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true); !strings.Contains(text, "maximum") {
		t.Fatalf("past --max-instances: %s", text)
	}
	h.call("browser_instance", map[string]any{"action": "close", "id": id}, false)
	h.call("browser_instance", map[string]any{"action": "get", "id": id}, true)
	if _, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port)); err == nil {
		t.Fatal("a closed instance's endpoint still answers")
	}
}

func TestMCPClosingAnInstanceFailsWhatWasPending(t *testing.T) {
	h := newMCPHarness(t, "--fake-start-delay=3s")
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	port := int(created["port"].(float64))
	body := make(chan string, 1)
	go func() {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/json/version", port))
		if err != nil {
			body <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body <- string(b)
	}()
	time.Sleep(300 * time.Millisecond) // the launch is under way
	h.call("browser_instance", map[string]any{"action": "close", "id": created["id"]}, false)
	if got := <-body; !strings.Contains(got, "INSTANCE_CLOSED") {
		t.Fatalf("the pending request got %q, want INSTANCE_CLOSED", got)
	}
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

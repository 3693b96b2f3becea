package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/state"
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
	return newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, ExtraArgs: fakeArgs, StopGrace: time.Second,
	})
}

// newMCPHarnessOn is the harness with a coordinator launching as launch says.
func newMCPHarnessOn(t *testing.T, launch launch.Options, configure ...func(*actors.CoordinatorConfig)) *mcpHarness {
	t.Helper()
	log := zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.InfoLevel)
	cfg := actors.CoordinatorConfig{Sys: detect.HostSystem(), Launch: launch, StateDir: t.TempDir(), MaxInstances: 3, Version: version, Log: log}
	for _, f := range configure {
		f(&cfg)
	}
	c, err := actors.NewCoordinator(cfg)
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

// call invokes a tool; wantError says whether an isError result is
// expected. It returns the readable text (the first text item) and the
// structured content; a result with structured content must carry it as
// JSON text too (the second text item), and an error must name its tool
// and never a command-line flag.
func (h *mcpHarness) call(name string, args map[string]any, wantError bool) (string, map[string]any) {
	h.t.Helper()
	res := h.callResult(name, args)
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	if len(texts) == 0 {
		h.t.Fatalf("%s %v: no text content", name, args)
	}
	text := texts[0]
	if res.IsError != wantError {
		h.t.Fatalf("%s %v: isError=%v, want %v: %s", name, args, res.IsError, wantError, strings.Join(texts, "\n"))
	}
	if res.IsError {
		if !strings.HasPrefix(text, name+": ") && !strings.HasPrefix(text, name+" ") {
			h.t.Errorf("%s %v: the error %q does not name its tool", name, args, text)
		}
		if strings.Contains(text, "--") {
			h.t.Errorf("%s %v: the error %q names a command-line flag", name, args, text)
		}
		return text, nil
	}
	var data map[string]any
	if res.StructuredContent == nil {
		h.t.Fatalf("%s %v: no structured content: %s", name, args, text)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &data); err != nil {
		h.t.Fatalf("%s %v: structured content is not an object: %s", name, args, raw)
	}
	var fromText map[string]any
	if len(texts) != 2 || json.Unmarshal([]byte(texts[1]), &fromText) != nil || !reflect.DeepEqual(fromText, data) {
		h.t.Errorf("%s %v: the second text item is not the structured content as JSON: %q", name, args, texts[1:])
	}
	return text, data
}

// callResult invokes a tool and returns its result as the client got it.
func (h *mcpHarness) callResult(name string, args map[string]any) *mcp.CallToolResult {
	h.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := h.client.CallTool(ctx, req)
	if err != nil {
		h.t.Fatalf("%s: protocol error %v", name, err)
	}
	return res
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
	actortest.Chromium(t)
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
		{"coordinator_launch_browser", map[string]any{"browser": "opera"}, "chrome, edge, chromium, brave, firefox"},
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

func TestMCPInstances(t *testing.T) {
	h := newMCPHarness(t)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id, _ := created["id"].(string)
	port := int(created["port"].(float64))
	if !strings.HasPrefix(id, "inst_") || port == h.c.Default().Proxy.Port() {
		t.Fatalf("new instance %v", created)
	}
	text, _ := h.call("browser_instance", map[string]any{"action": "list"}, false)
	if instanceLines(text) != 2 {
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

// listTools is tools/list as the client got it, each tool as JSON.
func (h *mcpHarness) listTools() map[string]map[string]any {
	h.t.Helper()
	res, err := h.client.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool)
		if err != nil {
			h.t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			h.t.Fatal(err)
		}
		out[tool.Name] = m
	}
	return out
}

// The annotations say what each tool does to the world, as the MCP spec
// defines them: only the read-only tools are read-only, stop, restart
// and browser_instance (close) are destructive, none reaches beyond this
// machine, and every tool has a title. download_list and download_wait
// only read (waiting changes nothing).
func TestMCPToolAnnotations(t *testing.T) {
	h := newMCPHarness(t)
	tools := h.listTools()
	want := map[string]struct{ readOnly, destructive, idempotent bool }{
		"coordinator_list_browsers":   {true, false, true},
		"coordinator_status":          {true, false, true},
		"coordinator_launch_browser":  {false, false, false},
		"coordinator_stop_browser":    {false, true, true},
		"coordinator_restart_browser": {false, true, false},
		"browser_instance":            {false, true, false},
		"download_list":               {true, false, true},
		"download_wait":               {true, false, false},
	}
	if len(tools) != len(want) {
		t.Errorf("%d tools, want %d", len(tools), len(want))
	}
	for name, w := range want {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("no tool %s", name)
			continue
		}
		ann, _ := tool["annotations"].(map[string]any)
		got := map[string]any{"readOnlyHint": w.readOnly, "destructiveHint": w.destructive, "idempotentHint": w.idempotent, "openWorldHint": false}
		for hint, v := range got {
			if ann[hint] != v {
				t.Errorf("%s: %s = %v, want %v", name, hint, ann[hint], v)
			}
		}
		if title, _ := tool["title"].(string); title == "" || ann["title"] != title {
			t.Errorf("%s: title %q, annotations.title %v: want the same title in both", name, tool["title"], ann["title"])
		}
	}
}

// Every input schema refuses other keys, describes every property, makes
// action an enum whose values are each described, and lets id and instance
// be a string or a number.
func TestMCPToolSchemas(t *testing.T) {
	h := newMCPHarness(t)
	refs := 0
	for name, tool := range h.listTools() {
		schema, _ := tool["inputSchema"].(map[string]any)
		if schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Errorf("%s: schema %v: want an object with additionalProperties false", name, schema)
		}
		if d, _ := tool["description"].(string); d == "" {
			t.Errorf("%s: no description", name)
		}
		props, _ := schema["properties"].(map[string]any)
		for pname, p := range props {
			p, _ := p.(map[string]any)
			desc, _ := p["description"].(string)
			if len(desc) < 20 {
				t.Errorf("%s.%s: description %q", name, pname, desc)
			}
			if (pname == "id" && name != "download_wait") || pname == "instance" { // download_wait's id is a download's
				refs++
				types, _ := p["type"].([]any)
				if !slices.Contains(types, any("string")) || !(slices.Contains(types, any("integer")) || slices.Contains(types, any("number"))) {
					t.Errorf("%s.%s: type %v, want a string or a number", name, pname, p["type"])
				}
				if !strings.Contains(desc, "port") || !strings.Contains(desc, "number") {
					t.Errorf("%s.%s: description %q does not say it takes a port as a number", name, pname, desc)
				}
			}
		}
		if name != "browser_instance" {
			continue
		}
		action, _ := props["action"].(map[string]any)
		if fmt.Sprint(action["enum"]) != "[new list get close]" {
			t.Errorf("action enum %v", action["enum"])
		}
		desc, _ := action["description"].(string)
		for _, v := range []string{"new =", "list =", "get =", "close ="} {
			if !strings.Contains(desc, v) {
				t.Errorf("action description %q does not describe %q", desc, v)
			}
		}
		if fmt.Sprint(schema["required"]) != "[action]" {
			t.Errorf("required %v, want [action]", schema["required"])
		}
		if port, _ := props["port"].(map[string]any); port["type"] != "integer" {
			t.Errorf("port schema %v", port)
		}
	}
	if refs != 6 { // launch, stop, restart, download_list, download_wait: instance; browser_instance: id
		t.Errorf("%d id/instance properties, want 6", refs)
	}
}

// id and instance take an instance id or an endpoint port, as a string or
// a number, in every tool that takes one.
func TestMCPInstanceByNumberOrString(t *testing.T) {
	h := newMCPHarness(t)
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id := created["id"].(string)
	port := int(created["port"].(float64))
	for _, ref := range []any{id, port, float64(port), fmt.Sprint(port), " " + id + " "} {
		if text, data := h.call("browser_instance", map[string]any{"action": "get", "id": ref}, false); data["id"] != id || !strings.Contains(text, id) {
			t.Fatalf("get %#v: %s %v", ref, text, data)
		}
	}
	// The lifecycle tools on that instance, by number and by string.
	_, launched := h.call("coordinator_launch_browser", map[string]any{"instance": port}, false)
	if launched["instance"] != id {
		t.Fatalf("launch by port %d launched %v", port, launched["instance"])
	}
	_, restarted := h.call("coordinator_restart_browser", map[string]any{"instance": id, "force": true}, false)
	if restarted["instance"] != id || restarted["generation"] != float64(2) {
		t.Fatalf("restart by id: %v", restarted)
	}
	if _, stopped := h.call("coordinator_stop_browser", map[string]any{"instance": port}, false); stopped["instance"] != id {
		t.Fatalf("stop by port: %v", stopped)
	}
	if def := h.defaultState(); def.Browser.Generation != 0 {
		t.Fatalf("the default instance was touched: %+v", def.Browser)
	}
	// The default one by its port as a number.
	defPort := h.c.Default().Proxy.Port()
	if _, data := h.call("coordinator_launch_browser", map[string]any{"instance": defPort}, false); data["instance"] != h.c.Default().ID {
		t.Fatalf("launch by the default port: %v", data)
	}
	h.call("browser_instance", map[string]any{"action": "close", "id": float64(port)}, false)
	h.call("browser_instance", map[string]any{"action": "get", "id": id}, true)
	// Numbers that are no port, and values that are no reference.
	for _, bad := range []any{1.5, 0, -3, 70000, true, []any{"x"}, map[string]any{"id": id}} {
		text, _ := h.call("coordinator_stop_browser", map[string]any{"instance": bad}, true)
		if !strings.Contains(text, `"instance"`) || !strings.Contains(text, "endpoint port") {
			t.Errorf("instance %#v: %s", bad, text)
		}
	}
	// null is as if it were left out: the default instance.
	if _, data := h.call("coordinator_stop_browser", map[string]any{"instance": nil}, false); data["instance"] != h.c.Default().ID {
		t.Fatalf("instance null: %v", data)
	}
}

// Every tool refuses a key it does not know, naming it and the keys it
// accepts.
func TestMCPUnknownArgumentsRefused(t *testing.T) {
	h := newMCPHarness(t)
	accepts := map[string][]string{
		"coordinator_list_browsers":   nil,
		"coordinator_status":          nil,
		"coordinator_launch_browser":  {"type", "browser", "headless", "user_data_dir", "args", "instance"},
		"coordinator_stop_browser":    {"instance"},
		"coordinator_restart_browser": {"force", "instance"},
		"browser_instance":            {"action", "id", "type", "browser", "headless", "port"},
	}
	for tool, names := range accepts {
		text, _ := h.call(tool, map[string]any{"action": "list", "bogus": 1, "instanceId": "x"}, true)
		if tool == "browser_instance" {
			if !strings.Contains(text, `"bogus"`) || !strings.Contains(text, `"instanceId"`) {
				t.Errorf("%s: %q does not name both unknown keys", tool, text)
			}
		} else if !strings.Contains(text, `"bogus"`) {
			t.Errorf("%s: %q does not name the unknown key", tool, text)
		}
		if names == nil && !strings.Contains(text, "takes no arguments") {
			t.Errorf("%s: %q does not say it takes no arguments", tool, text)
		}
		for _, n := range names {
			if !strings.Contains(text, n) {
				t.Errorf("%s: %q does not list %s", tool, text, n)
			}
		}
	}
	if st := h.defaultState(); st.Browser.Generation != 0 {
		t.Fatalf("a refused call launched: %+v", st.Browser)
	}
}

// Errors speak MCP: the tool, the argument to pass next, never a flag
// (call checks every error for "--" and its tool's name).
func TestMCPErrorsSpeakMCP(t *testing.T) {
	h := newMCPHarness(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defPort := h.c.Default().Proxy.Port()
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"browser_instance", map[string]any{"action": "new", "port": busyPort},
			[]string{fmt.Sprintf("browser_instance new: port %d is in use; pass another port, or leave port out for a free one", busyPort)}},
		{"browser_instance", map[string]any{"action": "new", "port": defPort},
			[]string{fmt.Sprintf("port %d is the endpoint of %s", defPort, h.c.Default().ID), "leave port out"}},
		{"browser_instance", map[string]any{"action": "new", "port": 0}, []string{"port 0", "from 1 to 65535", "leave port out"}},
		{"browser_instance", map[string]any{"action": "new", "port": "9333"}, []string{`argument "port" must be an integer from 1 to 65535, not a string`}},
		{"browser_instance", map[string]any{"action": "new", "id": "x"}, []string{"browser_instance new: id is for get and close", "new takes type, browser, headless, port and download_dir"}},
		{"browser_instance", map[string]any{"action": "list", "port": 9333}, []string{"browser_instance list: port is for new", "list takes no other argument"}},
		{"browser_instance", map[string]any{"action": "get", "headless": true, "id": "x"}, []string{"headless is for new", "get takes id"}},
		{"browser_instance", map[string]any{}, []string{"browser_instance: action is required: new, list, get or close"}},
		{"browser_instance", map[string]any{"action": 3}, []string{`argument "action" must be a string: new, list, get or close, not a number`}},
		{"browser_instance", map[string]any{"action": "close"}, []string{"browser_instance close: needs id"}},
		{"browser_instance", map[string]any{"action": "close", "id": defPort}, []string{"default instance", "coordinator_stop_browser"}},
		{"browser_instance", map[string]any{"action": "get", "id": 1}, []string{"browser_instance get: unknown instance", "pass id as one of those ids or ports"}},
		{"coordinator_stop_browser", map[string]any{"instance": "inst_nope"}, []string{"unknown instance", "pass instance as one of those ids or ports, or leave instance out"}},
		{"coordinator_launch_browser", map[string]any{"user_data_dir": notDir}, []string{"not a directory", "leave user_data_dir out"}},
		{"coordinator_launch_browser", map[string]any{"args": []any{"--user-data-dir=/tmp/x"}}, []string{`the browser switch "user-data-dir" is cdpvisor's to set`, "pass the profile as user_data_dir instead"}},
		{"coordinator_launch_browser", map[string]any{"args": []any{"--remote-debugging-port=9"}}, []string{"clients connect to the stable endpoint"}},
		{"coordinator_launch_browser", map[string]any{"args": "--lang=de"}, []string{`argument "args" must be an array of strings, not a string`}},
		{"coordinator_launch_browser", map[string]any{"browser": "/nonexistent/chrome"}, []string{"not an executable"}},
		{"coordinator_restart_browser", map[string]any{"force": "yes"}, []string{`argument "force" must be a boolean`}},
	}
	for _, c := range cases {
		text, _ := h.call(c.tool, c.args, true)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: %q does not say %q", c.tool, c.args, text, w)
			}
		}
	}
	// The coordinator's instance limit (3 here).
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	h.call("browser_instance", map[string]any{"action": "new"}, false)
	text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true)
	for _, w := range []string{"browser_instance new: already 3 instances are open", "maximum this coordinator allows", "browser_instance close"} {
		if !strings.Contains(text, w) {
			t.Errorf("the limit: %q does not say %q", text, w)
		}
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

package mcptools

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// testVersion is the version the tests' coordinators and servers give.
const testVersion = "0.1.0-dev"

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
	cfg := actors.CoordinatorConfig{Sys: detect.HostSystem(), Launch: launch, StateDir: t.TempDir(), MaxInstances: 3, Version: testVersion, Log: log}
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
	h.client, err = client.NewInProcessClient(New(c, cfg.Sys, testVersion))
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

// newMCPHarnessWithDownloads is the harness on the fake browser with its
// downloads under root.
func newMCPHarnessWithDownloads(t *testing.T, root string) *mcpHarness {
	t.Helper()
	return newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(cfg *actors.CoordinatorConfig) { cfg.DownloadDir = root })
}

// instanceLines counts the instances in a readable status or list: one
// line each, starting with its id.
func instanceLines(text string) int {
	n := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "inst_") {
			n++
		}
	}
	return n
}

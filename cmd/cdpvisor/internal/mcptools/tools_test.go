package mcptools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

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
		"coordinator_stop_browser", "coordinator_restart_browser", "browser_instance", "browser_context", "download_list", "download_wait", "request_human"} {
		if !strings.Contains(strings.Join(names, ","), want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}
}

// The annotations say what each tool does to the world, as the MCP spec
// defines them: only the read-only tools are read-only, stop, restart,
// browser_instance and browser_context (close) are destructive, none
// reaches beyond this machine, and every tool has a title. download_list
// and download_wait only read (waiting changes nothing).
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
		"browser_context":             {false, true, false},
		"download_list":               {true, false, true},
		"download_wait":               {true, false, false},
		"request_human":               {false, false, false},
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
		actions := map[string][]string{"browser_instance": {"new", "list", "get", "close"}, "browser_context": {"open", "list", "close", "export", "import", "journal", "trace"}}[name]
		if actions == nil {
			continue
		}
		action, _ := props["action"].(map[string]any)
		if fmt.Sprint(action["enum"]) != fmt.Sprint(actions) {
			t.Errorf("%s: action enum %v, want %v", name, action["enum"], actions)
		}
		desc, _ := action["description"].(string)
		for _, v := range actions {
			if !strings.Contains(desc, v+" =") {
				t.Errorf("%s: action description %q does not describe %q", name, desc, v)
			}
		}
		if fmt.Sprint(schema["required"]) != "[action]" {
			t.Errorf("%s: required %v, want [action]", name, schema["required"])
		}
		if port, _ := props["port"].(map[string]any); name == "browser_instance" && port["type"] != "integer" {
			t.Errorf("port schema %v", port)
		}
	}
	if refs != 7 { // launch, stop, restart, download_list, download_wait, browser_context: instance; browser_instance: id
		t.Errorf("%d id/instance properties, want 7", refs)
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

package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite the tool schema snapshots in testdata/tools")

// schemaDir holds one file per tool: its definition as tools/list sends it.
var schemaDir = filepath.Join("testdata", "tools")

// Every tool's definition (name, title, description, input schema,
// annotations) is what the snapshot says, byte for byte: a change to what
// models read shows in review as a diff of testdata/tools.
func TestMCPToolSchemasMatchTheSnapshots(t *testing.T) {
	listed := listedToolsJSON(t)
	if *updateSchemas {
		if err := os.RemoveAll(schemaDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(schemaDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, def := range listed {
		path := filepath.Join(schemaDir, name+".json")
		if *updateSchemas {
			if err := os.WriteFile(path, def, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("tool %s has no snapshot (run with -update-schemas to write it): %v", name, err)
			continue
		}
		if !bytes.Equal(def, want) {
			t.Errorf("tool %s: its definition differs from %s (run with -update-schemas if the change is meant):\n%s", name, path, def)
		}
	}
	snapshots, err := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range snapshots {
		if _, ok := listed[strings.TrimSuffix(filepath.Base(path), ".json")]; !ok {
			t.Errorf("%s is the snapshot of no tool", path)
		}
	}
}

// listedToolsJSON is each tool as the server sends it in its tools/list
// answer (key order kept), indented by two spaces, with a trailing newline.
func listedToolsJSON(t *testing.T) map[string][]byte {
	t.Helper()
	s := New(nil, launch.System{}, testVersion) // listing tools asks nothing of the coordinator or the host
	resp := s.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	raw, err := json.Marshal(resp) // what the stdio server writes
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Result struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || len(answer.Result.Tools) == 0 {
		t.Fatalf("tools/list answered %s (%v)", raw, err)
	}
	if answer.Result.NextCursor != "" {
		t.Fatalf("tools/list is paged (next cursor %q); the snapshot would miss tools", answer.Result.NextCursor)
	}
	out := map[string][]byte{}
	for _, tool := range answer.Result.Tools {
		var named struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(tool, &named); err != nil || named.Name == "" {
			t.Fatalf("a tool without a name: %s", tool)
		}
		pretty, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out[named.Name] = append(pretty, '\n')
	}
	return out
}

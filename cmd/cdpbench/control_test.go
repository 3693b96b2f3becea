package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDebugProfile(t *testing.T) {
	port := []string{"/usr/lib/chromium/chromium", "--remote-debugging-port=0", "--user-data-dir=/tmp/s/p", "--headless=new"}
	if p, err := debugProfile(port); err != nil || p != "/tmp/s/p" {
		t.Errorf("with a port: %q, %v", p, err)
	}
	both := append([]string{"--remote-debugging-pipe"}, port...)
	if p, err := debugProfile(both); err != nil || p != "/tmp/s/p" {
		t.Errorf("pipe and port: %q, %v", p, err)
	}
	pipe := []string{"/usr/lib/chromium/chromium", "--remote-debugging-pipe", "--user-data-dir=/tmp/s/p"}
	if _, err := debugProfile(pipe); !errors.Is(err, errNoDebugPort) || !strings.Contains(err.Error(), "pipe") {
		t.Errorf("pipe only: %v", err)
	}
	if _, err := debugProfile([]string{"chromium", "--user-data-dir=/p"}); !errors.Is(err, errNoDebugPort) {
		t.Errorf("neither: %v", err)
	}
	if _, err := debugProfile([]string{"chromium", "--remote-debugging-port=9222"}); err == nil || errors.Is(err, errNoDebugPort) {
		t.Errorf("no profile: %v", err)
	}
}

func TestChooseNodeUpstream(t *testing.T) {
	d := &endpointSide{ws: "ws://127.0.0.1:1/devtools/browser/bare", target: "BARE"}
	p := &endpointSide{ws: "ws://127.0.0.1:2/devtools/browser/cv", target: "CV"}
	control := &endpointSide{ws: "ws://127.0.0.1:3/devtools/browser/its"}
	if got := chooseNodeUpstream(d, p, control); got != (nodeUpstream{upstreamCdpvisorBrowser, control.ws, "CV"}) {
		t.Errorf("with control: %+v (the cdpvisor side's page, on its browser)", got)
	}
	if got := chooseNodeUpstream(d, p, nil); got != (nodeUpstream{upstreamBareBrowser, d.ws, "BARE"}) {
		t.Errorf("without control: %+v (the bare browser's own page)", got)
	}
}

func TestNodeClientConfigTargets(t *testing.T) {
	up := nodeUpstream{upstreamBareBrowser, "ws://127.0.0.1:1/devtools/browser/bare", "BARE"}
	p := &endpointSide{ws: "ws://127.0.0.1:2/devtools/browser/cv", target: "CV"}
	b, err := nodeClientConfig(up, p, 7, 8, config{NodeRounds: 1, NodeCalls: 10, NodeSlice: 5, RTWarmup: 3})
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Sides  []map[string]string `json:"sides"`
		Target string              `json:"target"`
		Calls  int                 `json:"calls"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{
		{"name": nodeSideDirect, "ws": up.ws, "target": "BARE"},
		{"name": nodeSideCdpvisor, "ws": p.ws, "target": "CV"},
		{"name": nodeSideNode, "ws": "ws://127.0.0.1:7/devtools/browser/bare", "target": "BARE"},
		{"name": nodeSideGo, "ws": "ws://127.0.0.1:8/devtools/browser/bare", "target": "BARE"},
	}
	if len(cfg.Sides) != len(want) || cfg.Target != "BARE" || cfg.Calls != 10 {
		t.Fatalf("config: %s", b)
	}
	for i := range want {
		for k, v := range want[i] {
			if cfg.Sides[i][k] != v {
				t.Errorf("side %d %s = %q, want %q", i, k, cfg.Sides[i][k], v)
			}
		}
	}
}

func TestNodeRowsSayTheUpstream(t *testing.T) {
	r := summarizeNode(map[string][]float64{
		nodeSideDirect: {100}, nodeSideCdpvisor: {180}, nodeSideNode: {200}, nodeSideGo: {150},
	}, config{NodeRounds: 1, NodeCalls: 1, NodeSlice: 1})
	r.Upstream = upstreamBareBrowser
	rw := findRow(nodeRows(r), "round trip, Node client, p50")
	if rw == nil || rw.Direct != "100.0 (bare browser)" {
		t.Errorf("row: %+v", rw)
	}
	if !strings.Contains(formatNodeSides(r), "direct and relays: bare browser") {
		t.Errorf("sides table:\n%s", formatNodeSides(r))
	}
}

package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// A full instance port range, as browser_instance new says it.
func TestMCPInstancePortRangeFull(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	h := newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(cfg *actors.CoordinatorConfig) { cfg.InstancePorts = actors.PortRange{Lo: port, Hi: port} })
	text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true)
	if !strings.Contains(text, "no free port left in the coordinator's instance port range") || !strings.Contains(text, "pass another port outside that range") {
		t.Fatalf("%q", text)
	}
}

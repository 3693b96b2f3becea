package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 33: chrome-remote-interface's CDP({host, port}), which fetches
// /json/protocol before anything else, works unchanged against the
// endpoint of a piped Chromium (before, it failed on the 404).
func TestChromeRemoteInterfaceConnectsByPort(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	out, err := actortest.NodeScript(t, 60*time.Second, "cri_protocol.mjs", s.endpoint)
	if err != nil {
		t.Fatalf("cri_protocol.mjs: %v\n%s", err, out)
	}
	var r struct {
		OK       bool
		Result   int
		Protocol string
		Domains  int
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || !r.OK || r.Result != 2 || r.Domains < 10 {
		t.Fatalf("cri_protocol.mjs said %q", out)
	}
	t.Logf("chrome-remote-interface: protocol %s, %d domains, 1+1 = %d", r.Protocol, r.Domains, r.Result)
}

package main

import (
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

func TestSubstitute(t *testing.T) {
	tg := state.Target{Port: 9222, Endpoint: "http://127.0.0.1:9222", WS: "ws://127.0.0.1:9222/devtools/browser"}
	got := substitute([]string{"{cdp_port}-bin", "--browserUrl={cdp_endpoint}", "{cdp_ws} {cdp_ws}", "{cdp_other}"}, tg)
	want := []string{"9222-bin", "--browserUrl=http://127.0.0.1:9222", "ws://127.0.0.1:9222/devtools/browser ws://127.0.0.1:9222/devtools/browser", "{cdp_other}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("substitute: %q, want %q", got, want)
	}
}

func TestSplitCommand(t *testing.T) {
	for _, c := range []struct{ args, flags, command string }{
		{"--timeout 1s -- npx mcp --browserUrl=x", "--timeout 1s --", "npx mcp --browserUrl=x"},
		{"--standalone npx mcp --port 3", "--standalone", "npx mcp --port 3"},
		{"-- --weird -x", "--", "--weird -x"},
		{"--", "--", ""},
		{"--bogus x", "--bogus x", ""},
	} {
		f, cmd := splitCommand(strings.Fields(c.args))
		if strings.Join(f, " ") != c.flags || strings.Join(cmd, " ") != c.command {
			t.Errorf("%q: flags %q command %q, want %q and %q", c.args, f, cmd, c.flags, c.command)
		}
	}
}

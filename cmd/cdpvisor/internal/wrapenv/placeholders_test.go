package wrapenv

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

func TestSubstitute(t *testing.T) {
	tg := state.Target{Port: 9222, Endpoint: "http://127.0.0.1:9222", WS: "ws://127.0.0.1:9222/devtools/browser"}
	got := Substitute([]string{"{cdp_port}-bin", "--browserUrl={cdp_endpoint}", "{cdp_ws} {cdp_ws}", "{cdp_other}"}, tg)
	want := []string{"9222-bin", "--browserUrl=http://127.0.0.1:9222", "ws://127.0.0.1:9222/devtools/browser ws://127.0.0.1:9222/devtools/browser", "{cdp_other}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("substitute: %q, want %q", got, want)
	}
}

// A Firefox instance's endpoint serves no CDP: the CDP placeholders and
// variables are empty and {bidi_endpoint} is its BiDi socket; a Chromium
// instance's {bidi_endpoint} is empty.
func TestSubstituteByProtocol(t *testing.T) {
	const cmd = "p={cdp_port} e={cdp_endpoint} w={cdp_ws} b={bidi_endpoint}"
	cdp := state.Target{Port: 9222, Endpoint: "http://127.0.0.1:9222", WS: "ws://127.0.0.1:9222/devtools/browser", Protocol: launch.ProtocolCDP}
	bidi := state.Target{Port: 9333, Endpoint: "http://127.0.0.1:9333", WS: "ws://127.0.0.1:9333/session", Protocol: launch.ProtocolBiDi}
	for _, c := range []struct {
		t         state.Target
		args, env string
	}{
		{cdp, "p=9222 e=http://127.0.0.1:9222 w=ws://127.0.0.1:9222/devtools/browser b=",
			"CDP_PORT=9222 CDP_ENDPOINT=http://127.0.0.1:9222 CDP_WS=ws://127.0.0.1:9222/devtools/browser BIDI_ENDPOINT="},
		{bidi, "p= e= w= b=ws://127.0.0.1:9333/session", "CDP_PORT= CDP_ENDPOINT= CDP_WS= BIDI_ENDPOINT=ws://127.0.0.1:9333/session"},
	} {
		if got := Substitute([]string{cmd}, c.t)[0]; got != c.args {
			t.Errorf("%s: %q, want %q", c.t.Protocol, got, c.args)
		}
		if _, env := Values(c.t); strings.Join(env, " ") != c.env {
			t.Errorf("%s: env %q, want %q", c.t.Protocol, env, c.env)
		}
	}
}

// wrap says on stderr when the command uses placeholders of the protocol
// the endpoint does not serve, and what to use instead; a command that
// fits says nothing.
func TestWarnProtocolMismatch(t *testing.T) {
	cdp := state.Target{Endpoint: "http://127.0.0.1:9222", WS: "ws://127.0.0.1:9222/devtools/browser", Protocol: launch.ProtocolCDP}
	bidi := state.Target{Endpoint: "http://127.0.0.1:9333", WS: "ws://127.0.0.1:9333/session", Protocol: launch.ProtocolBiDi, Instance: "inst_1_abcdef"}
	for _, c := range []struct {
		name string
		t    state.Target
		cmd  []string
		want []string // nil: no warning
	}{
		{"cdp on firefox", bidi, []string{"npx", "chrome-devtools-mcp", "--browserUrl={cdp_endpoint}", "--port={cdp_port}"},
			[]string{"{cdp_port}, {cdp_endpoint}", "instance inst_1_abcdef", "runs Firefox, which speaks WebDriver BiDi, not CDP", "are empty",
				"use {bidi_endpoint} (ws://127.0.0.1:9333/session)", `"level":"warn"`}},
		{"bidi on firefox", bidi, []string{"node", "client.mjs", "{bidi_endpoint}"}, nil},
		{"bidi on chromium", cdp, []string{"node", "client.mjs", "{bidi_endpoint}"},
			[]string{"{bidi_endpoint}", "the default instance", "speaks CDP, not WebDriver BiDi", "is empty", "use {cdp_endpoint} or {cdp_ws}"}},
		{"cdp on chromium", cdp, []string{"x", "{cdp_ws}"}, nil},
	} {
		var buf bytes.Buffer
		WarnProtocolMismatch(c.cmd, c.t, zerolog.New(&buf))
		switch {
		case c.want == nil && buf.Len() > 0:
			t.Errorf("%s: warned %s", c.name, buf.String())
		case c.want != nil && buf.Len() == 0:
			t.Errorf("%s: no warning", c.name)
		}
		for _, w := range c.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: %s lacks %q", c.name, buf.String(), w)
			}
		}
	}
}

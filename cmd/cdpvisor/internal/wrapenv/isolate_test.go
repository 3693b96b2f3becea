package wrapenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// --isolate alone is a fresh world, --isolate=NAME a named one; the
// booleans of the variable work as for every boolean flag.
func TestIsolateValues(t *testing.T) {
	for _, c := range []struct {
		v    string
		on   bool
		name string
	}{{"true", true, ""}, {"1", true, ""}, {"false", false, ""}, {"0", false, ""}, {"agent-7", true, "agent-7"}, {" x ", true, "x"}} {
		var i Isolate
		if err := i.Set(c.v); err != nil || i.On != c.on || i.Name != c.name {
			t.Errorf("Set(%q): %+v %v, want on %v name %q", c.v, i, err, c.on, c.name)
		}
	}
	for _, bad := range []string{"a/b", "..", strings.Repeat("x", 65), "é"} {
		i := Isolate{On: true, Name: bad}
		if err := i.Check(); err == nil || !strings.Contains(err.Error(), "--isolate="+bad+": invalid world name") {
			t.Errorf("Check(%q): %v", bad, err)
		}
	}
	if !regexp.MustCompile(`^agent-[a-z0-9]{8}$`).MatchString(FreshName()) || FreshName() == FreshName() {
		t.Errorf("fresh names %s %s", FreshName(), FreshName())
	}
}

// A world's target by path (where worlds have no ports) is the instance's
// with its endpoint and websocket under /context/NAME; the port stays the
// instance's.
func TestWorldTarget(t *testing.T) {
	tg := state.Target{Port: 9222, Endpoint: "http://127.0.0.1:9222", WS: "ws://127.0.0.1:9222/devtools/browser", Protocol: launch.ProtocolCDP}
	w, err := World(tg, "agent-1")
	if err != nil || w.Endpoint != "http://127.0.0.1:9222/context/agent-1" || w.WS != "ws://127.0.0.1:9222/context/agent-1/devtools/browser" || w.Port != 9222 {
		t.Fatalf("World: %+v %v", w, err)
	}
	got := Substitute([]string{"--cdp-endpoint={cdp_endpoint}", "--wsEndpoint={cdp_ws}", "{cdp_port}"}, w)
	if strings.Join(got, " ") != "--cdp-endpoint=http://127.0.0.1:9222/context/agent-1 --wsEndpoint=ws://127.0.0.1:9222/context/agent-1/devtools/browser 9222" {
		t.Errorf("placeholders: %q", got)
	}
	// Firefox serves no worlds.
	i := Isolate{On: true}
	bidi := state.Target{Port: 9333, Endpoint: "http://127.0.0.1:9333", WS: "ws://127.0.0.1:9333/session", Protocol: launch.ProtocolBiDi}
	if _, err := i.Apply(bidi, false, nil, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "runs Firefox over WebDriver BiDi") {
		t.Errorf("--isolate on Firefox: %v", err)
	}
}

// coordinatorAnswering is an endpoint whose world requests answer a world
// on port (0: worlds without ports, as beyond loopback), or that knows no
// world requests (older: false).
func coordinatorAnswering(t *testing.T, port int, knows bool) state.Target {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, worldapi.Path+"/")
		if !knows || !ok || r.Method != http.MethodPut {
			http.NotFound(w, r)
			return
		}
		ws := worldapi.Status{Name: name, Port: port, Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), WS: fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", port)}
		if port == 0 {
			ws.Endpoint, ws.WS = "", ""
		}
		_ = json.NewEncoder(w).Encode(ws)
	}))
	t.Cleanup(srv.Close)
	p := srv.Listener.Addr().(*net.TCPAddr).Port
	return state.Target{Port: p, Endpoint: srv.URL, WS: fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", p), Protocol: launch.ProtocolCDP}
}

// With world ports, every placeholder is the world's own port, and nothing
// is warned of: however the child spells its URL, it reaches the world.
func TestIsolateFillsTheWorldsPort(t *testing.T) {
	tg := coordinatorAnswering(t, 45678, true)
	var buf bytes.Buffer
	i := Isolate{On: true, Name: "w1"}
	cmd := []string{"npx", "chrome-devtools-mcp", "--browserUrl={cdp_endpoint}", "--port={cdp_port}", "{cdp_ws}"}
	w, err := i.Apply(tg, false, cmd, zerolog.New(&buf).Level(zerolog.WarnLevel))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Substitute(cmd, w), " "); got != "npx chrome-devtools-mcp --browserUrl=http://127.0.0.1:45678 --port=45678 ws://127.0.0.1:45678/devtools/browser" {
		t.Errorf("placeholders: %q", got)
	}
	if buf.Len() != 0 {
		t.Errorf("warned: %s", buf.String())
	}
}

// Where worlds have no ports (beyond loopback, or a coordinator older than
// them), wrap gives the path form and warns when the command would reach
// the whole browser from its world: {cdp_port}, or {cdp_endpoint} given to
// --browserUrl.
func TestWarnWorldPlaceholders(t *testing.T) {
	for _, knows := range []bool{true, false} {
		tg := coordinatorAnswering(t, 0, knows)
		for _, c := range []struct {
			cmd  []string
			want []string
		}{
			{[]string{"npx", "chrome-devtools-mcp", "--wsEndpoint={cdp_ws}"}, nil},
			{[]string{"npx", "@playwright/mcp", "--cdp-endpoint={cdp_endpoint}"}, nil},
			{[]string{"npx", "chrome-devtools-mcp", "--browserUrl={cdp_endpoint}"}, []string{"drops its path /context/w1", "--wsEndpoint={cdp_ws}"}},
			{[]string{"npx", "chrome-devtools-mcp", "-u", "{cdp_endpoint}"}, []string{"drops its path"}},
			{[]string{"node", "x.js", "--port", "{cdp_port}"}, []string{"{cdp_port}", "reaches the whole browser, not world w1", tg.Endpoint + "/context/w1"}},
		} {
			var buf bytes.Buffer
			i := Isolate{On: true, Name: "w1"}
			w, err := i.Apply(tg, false, c.cmd, zerolog.New(&buf).Level(zerolog.WarnLevel))
			if err != nil {
				t.Fatal(err)
			}
			if w.Endpoint != tg.Endpoint+"/context/w1" || w.Port != tg.Port {
				t.Errorf("without world ports: %+v, want the path form", w)
			}
			if (c.want == nil) != (buf.Len() == 0) {
				t.Errorf("%q: warned %q", c.cmd, buf.String())
			}
			for _, w := range c.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("%q: %s lacks %q", c.cmd, buf.String(), w)
				}
			}
		}
	}
}

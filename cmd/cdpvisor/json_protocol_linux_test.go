package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Issue 33: the endpoint's /json/protocol, whole and under a world, is the
// schema the same Chromium serves on a debugging port (same version, same
// domains, same commands), while the browser cdpvisor runs stays on its
// pipe with no port open. Before, a piped browser's endpoint answered 404.
func TestJSONProtocolIsTheSchemaThisChromiumServesOnAPort(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", t.TempDir())
	endpointAnswers(t, s.endpoint) // launches the browser
	whole := getSchema(t, s.endpoint+"/json/protocol")
	world := getSchema(t, s.endpoint+"/context/schema/json/protocol")
	if !bytes.Equal(whole, world) {
		t.Errorf("a world's /json/protocol (%d bytes) is not the endpoint's (%d bytes)", len(world), len(whole))
	}

	browsers := s.browsers()
	if len(browsers) != 1 {
		t.Fatalf("browsers %v, want one", browsers)
	}
	listening := listeningSockets(t)
	for _, pid := range append([]int{browsers[0]}, descendants(browsers[0])...) {
		if ports := portsOf(t, pid, listening); len(ports) > 0 {
			t.Errorf("browser process %d (%s) listens on %v: the schema must come without a port", pid, actortest.Cmdline(pid), ports)
		}
	}

	onPort := startUsersChromium(t, t.TempDir()) // --remote-debugging-port=0 --headless=new --no-sandbox on a profile of the test's
	direct := getSchema(t, fmt.Sprintf("http://127.0.0.1:%d/json/protocol", onPort.port(t)))
	got, want := outlineOf(t, whole), outlineOf(t, direct)
	if got.version != want.version || !slices.Equal(got.domains, want.domains) {
		t.Fatalf("the endpoint's schema is version %s with domains %v; on a port, version %s with %v", got.version, got.domains, want.version, want.domains)
	}
	for _, d := range want.domains {
		if !slices.Equal(got.commands[d], want.commands[d]) {
			t.Errorf("domain %s: the endpoint's commands %v, on a port %v", d, got.commands[d], want.commands[d])
		}
	}
	t.Logf("version %s, %d domains, %d bytes; byte for byte the port's: %v", got.version, len(got.domains), len(whole), bytes.Equal(whole, direct))
}

// getSchema GETs a /json/protocol that must answer as Chromium's does.
func getSchema(t *testing.T, url string) []byte {
	t.Helper()
	code, body, h := actortest.HTTPDo(t, http.MethodGet, url, "")
	if code != http.StatusOK || h.Get("Content-Type") != "application/json; charset=UTF-8" {
		t.Fatalf("%s: %d %s %.200q", url, code, h.Get("Content-Type"), body)
	}
	return []byte(body)
}

// outline is what a client builds its API from: the version, the domains,
// each domain's commands.
type outline struct {
	version  string
	domains  []string
	commands map[string][]string
}

func outlineOf(t *testing.T, doc []byte) outline {
	t.Helper()
	var s struct {
		Version struct{ Major, Minor string }
		Domains []struct {
			Domain   string
			Commands []struct{ Name string }
		}
	}
	if err := json.Unmarshal(doc, &s); err != nil {
		t.Fatalf("the schema is no JSON: %v", err)
	}
	o := outline{version: s.Version.Major + "." + s.Version.Minor, commands: map[string][]string{}}
	for _, d := range s.Domains {
		o.domains = append(o.domains, d.Domain)
		for _, c := range d.Commands {
			o.commands[d.Domain] = append(o.commands[d.Domain], c.Name)
		}
	}
	if len(o.domains) < 10 {
		t.Fatalf("a schema of %d domains", len(o.domains))
	}
	return o
}

// With --attach the browser is the user's, on its port: /json/protocol is
// that browser's own answer, fetched from its port (before, the one
// websocket cdpvisor carries it on answered 404).
func TestJSONProtocolOfTheUsersBrowserIsItsOwn(t *testing.T) {
	u := startUsersChromium(t, t.TempDir())
	s := serveAttached(t, u)
	got := getSchema(t, s.endpoint+"/json/protocol")
	if want := getSchema(t, fmt.Sprintf("http://127.0.0.1:%d/json/protocol", u.port(t))); !bytes.Equal(got, want) {
		t.Errorf("the endpoint's schema (%d bytes) is not the user's browser's (%d bytes)", len(got), len(want))
	}
	if n := connectionsTo(t, s.cmd.Process.Pid, u.port(t)); n != 1 {
		t.Errorf("cdpvisor keeps %d connections to the user's browser, want its one websocket", n)
	}
}

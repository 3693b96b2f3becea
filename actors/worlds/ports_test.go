package worlds_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// openWorld asks the endpoint for the world called name, as wrap and
// cdpvisor world do.
func (f *fixture) openWorld(name string) worldapi.Status {
	f.t.Helper()
	ws, err := worldapi.Open(f.context(), f.inst.Proxy.Endpoint(), name)
	if err != nil {
		f.t.Fatalf("open world %s: %v", name, err)
	}
	return ws
}

// portJSON fetches a /json answer of a world's port.
func (f *fixture) portJSON(ws worldapi.Status, method, path string, v any) int {
	f.t.Helper()
	code, body, _ := actortest.HTTPDo(f.t, method, ws.Endpoint+path, "")
	if v != nil && code == http.StatusOK {
		if err := json.Unmarshal([]byte(body), v); err != nil {
			f.t.Fatalf("%s%s: %v in %q", ws.Endpoint, path, err, body)
		}
	}
	return code
}

// refused says a connection to port is refused.
func refused(port int) bool {
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err == nil {
		c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// A world's port is the world's whole endpoint with nothing to prefix: its
// /json surface and sockets, walled as /context/NAME, every URL it hands
// out in the port form; it opens when the world is made, before any browser
// runs.
func TestWorldPortServesTheWorld(t *testing.T) {
	f := newFixture(t)
	a := f.openWorld("a")
	if !a.Created || a.Port == 0 || a.Endpoint != fmt.Sprintf("http://127.0.0.1:%d", a.Port) ||
		a.PathEndpoint != f.inst.Proxy.Endpoint()+"/context/a" || a.WS != fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", a.Port) {
		t.Fatalf("world a: %+v", a)
	}
	if again := f.openWorld("a"); again.Created || again.Port != a.Port {
		t.Fatalf("world a asked again: %+v, want the same port, not created", again)
	}
	var version struct{ WebSocketDebuggerURL string }
	if code := f.portJSON(a, http.MethodGet, "/json/version", &version); code != http.StatusOK ||
		!strings.HasPrefix(version.WebSocketDebuggerURL, fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser/", a.Port)) {
		t.Fatalf("world port /json/version: %d %q", code, version.WebSocketDebuggerURL)
	}
	ca := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	b := f.world("b")
	pa, pb, pw := f.newPage(ca), f.newPage(b), f.newPage(f.whole)
	if got := f.targets(ca); !slices.Equal(got, []string{pa}) {
		t.Errorf("the port's client sees targets %v, want only its world's %s", got, pa)
	}
	var list []listEntry
	f.portJSON(a, http.MethodGet, "/json/list", &list)
	wantWS := fmt.Sprintf("ws://127.0.0.1:%d/devtools/page/%s", a.Port, pa)
	if got := ids(list); !slices.Equal(got, []string{pa}) || list[0].WebSocketDebuggerURL != wantWS ||
		!strings.Contains(list[0].DevtoolsFrontendURL, fmt.Sprintf("127.0.0.1:%d/devtools/page/%s", a.Port, pa)) {
		t.Errorf("the port's /json/list %+v, want only %s at %s", list, pa, wantWS)
	}
	if got := ids(f.list("/context/a")); !slices.Equal(got, []string{pa}) {
		t.Errorf("/context/a/json/list %v: the path and the port are one world", got)
	}
	if all := ids(f.list("")); !slices.Contains(all, pa) || !slices.Contains(all, pb) || !slices.Contains(all, pw) {
		t.Errorf("the whole browser's list %v lacks a page", all)
	}
	var made listEntry
	if code := f.portJSON(a, http.MethodPut, "/json/new?about:blank", &made); code != http.StatusOK ||
		made.WebSocketDebuggerURL != fmt.Sprintf("ws://127.0.0.1:%d/devtools/page/%s", a.Port, made.ID) {
		t.Errorf("the port's /json/new: %d %+v", code, made)
	}
	if code := f.portJSON(a, http.MethodGet, "/json/close/"+pb, nil); code != http.StatusNotFound {
		t.Errorf("the port's /json/close of world b's page: %d, want 404", code)
	}
	if _, _, err := websocketDial(fmt.Sprintf("ws://127.0.0.1:%d/devtools/page/%s", a.Port, pb)); err == nil {
		t.Errorf("world a's port reached world b's page socket")
	}
	page := actortest.DialCDP(t, wantWS)
	if m := page.Call(1, "Runtime.evaluate", `{"expression":"3+3"}`, ""); !strings.Contains(string(m.Result), `"value":6`) {
		t.Errorf("world a's page socket on its port: %s", m.Raw)
	}
	if code := f.portJSON(a, http.MethodGet, worldapi.Path, nil); code == http.StatusOK {
		t.Errorf("a world's port answers the world requests: a world's client would control the others")
	}
}

// The port keeps the endpoint's rules: a Host that is not loopback and a
// foreign websocket Origin are refused, before anything launches.
func TestWorldPortHostAndOriginRules(t *testing.T) {
	f := &fixture{t: t, inst: served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})}
	a := f.openWorld("a")
	if code, body, _ := actortest.HTTPDo(t, http.MethodGet, a.Endpoint+"/json/version", "evil.example:80"); code != http.StatusForbidden {
		t.Errorf("a foreign Host on the world's port: %d %s, want 403", code, body)
	}
	h := http.Header{"Origin": {"https://evil.example"}}
	if _, resp, err := websocketDialHeader(a.WS+"/x", h); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Origin on the world's port: %v %v, want 403", resp, err)
	}
	if st, _ := f.inst.Browser.Status(f.context()); st.Generation != 0 {
		t.Errorf("refused requests launched a browser: %+v", st)
	}
}

// The port opens with the world and closes with it (its clients with it);
// the world made again gets its number back, unless another process took
// it: then another, never shared.
func TestWorldPortLivesWithItsWorld(t *testing.T) {
	f := newFixture(t)
	a := f.openWorld("a")
	cl := actortest.DialCDP(t, a.WS)
	f.newPage(cl)
	var list []worldapi.Status
	f.getJSON(http.MethodGet, worldapi.Path, &list)
	if len(list) != 1 || list[0].Name != "a" || list[0].Port != a.Port || list[0].Clients != 1 || list[0].Pages != 1 {
		t.Fatalf("GET %s: %+v", worldapi.Path, list)
	}
	had, err := worldapi.Close(f.context(), f.inst.Proxy.Endpoint(), "a")
	if err != nil || had.Name != "a" || had.Clients != 1 {
		t.Fatalf("close world a: %+v %v", had, err)
	}
	if !refused(a.Port) {
		t.Fatalf("world a's port %d still takes connections once it is closed", a.Port)
	}
	if err := cl.WaitClosed(); !strings.Contains(fmt.Sprint(err), "1001") {
		t.Errorf("world a's client closed with %v, want 1001", err)
	}
	if again := f.openWorld("a"); !again.Created || again.Port != a.Port {
		t.Fatalf("world a made again: %+v, want its port %d back", again, a.Port)
	}
	if _, err := worldapi.Close(f.context(), f.inst.Proxy.Endpoint(), "a"); err != nil {
		t.Fatal(err)
	}
	taken, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", a.Port))
	if err != nil {
		t.Fatalf("taking world a's old port: %v", err)
	}
	defer taken.Close()
	if third := f.openWorld("a"); third.Port == a.Port || third.Port == 0 {
		t.Fatalf("world a made again while its port is another's: %+v", third)
	}
	if _, err := worldapi.Close(f.context(), f.inst.Proxy.Endpoint(), "nobody"); !errors.Is(err, worldapi.ErrRefused) || !strings.Contains(err.Error(), "404") {
		t.Errorf("closing an unknown world: %v, want refused 404", err)
	}
	if _, err := worldapi.Open(f.context(), f.inst.Proxy.Endpoint(), "a%20b"); !errors.Is(err, worldapi.ErrRefused) || !strings.Contains(err.Error(), "letter") {
		t.Errorf("opening a bad name: %v, want refused with the rule", err)
	}
}

// A world made by its first use under /context/NAME gets its port too.
func TestWorldFirstUsedByPathGetsItsPort(t *testing.T) {
	f := newFixture(t)
	f.newPage(f.world("p"))
	list, err := worldapi.List(f.context(), f.inst.Proxy.Endpoint())
	if err != nil || len(list) != 1 || list[0].Port == 0 {
		t.Fatalf("worlds: %+v %v", list, err)
	}
	var got []listEntry
	f.portJSON(list[0], http.MethodGet, "/json/list", &got)
	if len(got) != 1 {
		t.Errorf("world p's port lists %+v, want its one page", got)
	}
}

func websocketDialHeader(url string, h http.Header) (*websocket.Conn, *http.Response, error) {
	c, resp, err := websocket.DefaultDialer.Dial(url, h)
	if c != nil {
		c.Close()
	}
	return c, resp, err
}

// A client on a world's port survives a kill of the browser as one on
// /context/NAME does: still connected, its next request made in the world
// again (a new context), which its port keeps serving.
func TestWorldPortClientSurvivesABrowserKill(t *testing.T) {
	f := newFixture(t)
	a := f.openWorld("a")
	cl := actortest.DialCDP(t, a.WS)
	before := f.contextOf(f.newPage(cl))
	f.kill()
	page := f.newPageAfterCrash(cl)
	if after := f.contextOf(page); after == before || after == "" {
		t.Fatalf("world a's context %q after the crash, %q before: want a new one", after, before)
	}
	if got := f.targets(cl); !slices.Equal(got, []string{page}) {
		t.Errorf("the port's client sees %v after the crash, want its new page alone", got)
	}
	var list []listEntry
	if code := f.portJSON(a, http.MethodGet, "/json/list", &list); code != http.StatusOK || !slices.Equal(ids(list), []string{page}) {
		t.Errorf("the port's /json/list after the crash: %d %v", code, ids(list))
	}
}

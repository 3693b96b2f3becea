package worlds_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// fixture is an instance on the fake browser, a client of the whole
// browser, and a way to reach its worlds.
type fixture struct {
	t     *testing.T
	inst  *served.Instance
	whole *actortest.CDPClient // the unprefixed endpoint's
	ids   int64
}

func newFixture(t *testing.T, args ...string) *fixture {
	t.Helper()
	return newFixtureSpec(t, proxy.Spec{}, args...)
}

func newFixtureSpec(t *testing.T, spec proxy.Spec, args ...string) *fixture {
	t.Helper()
	inst := served.StartInstance(t, served.FakeLaunch(t, args...), spec)
	return &fixture{t: t, inst: inst, whole: inst.DialCDP(t), ids: 100}
}

func newFixtureJournaled(t *testing.T, j *journal.Actor) *fixture {
	t.Helper()
	inst := served.StartInstanceJournaled(t, served.FakeLaunch(t), proxy.Spec{}, j)
	return &fixture{t: t, inst: inst, whole: inst.DialCDP(t), ids: 100}
}

// world connects a client to the browser socket of the world called name.
func (f *fixture) world(name string) *actortest.CDPClient {
	f.t.Helper()
	return actortest.DialCDP(f.t, f.inst.WS()+"/context/"+name+"/devtools/browser/any")
}

func (f *fixture) id() int64 { f.ids++; return f.ids }

// call sends a request on the browser's session and returns its answer,
// failing the test on an error answer.
func (f *fixture) call(cl *actortest.CDPClient, method, params string) actortest.CDPMessage {
	f.t.Helper()
	return cl.Call(f.id(), method, params, "")
}

// answer sends a request and returns its answer, error or not.
func (f *fixture) answer(cl *actortest.CDPClient, method, params string) actortest.CDPMessage {
	f.t.Helper()
	m, _ := cl.AnswerOf(f.id(), method, params)
	return m
}

// newPage makes a page without naming a context, as clients do.
func (f *fixture) newPage(cl *actortest.CDPClient) string {
	f.t.Helper()
	var res struct{ TargetID string }
	m := f.call(cl, "Target.createTarget", `{"url":"about:blank"}`)
	if err := json.Unmarshal(m.Result, &res); err != nil || res.TargetID == "" {
		f.t.Fatalf("createTarget answered %s", m.Raw)
	}
	return res.TargetID
}

// contextOf is a target's context, as the whole browser's client sees it.
func (f *fixture) contextOf(target string) string {
	f.t.Helper()
	var res struct {
		TargetInfo struct{ BrowserContextID string }
	}
	m := f.call(f.whole, "Target.getTargetInfo", `{"targetId":"`+target+`"}`)
	_ = json.Unmarshal(m.Result, &res)
	return res.TargetInfo.BrowserContextID
}

// defaultContext is the browser's default context.
func (f *fixture) defaultContext(cl *actortest.CDPClient) (string, []string) {
	f.t.Helper()
	var res struct {
		BrowserContextIDs       []string
		DefaultBrowserContextID string
	}
	m := f.call(cl, "Target.getBrowserContexts", "")
	if err := json.Unmarshal(m.Result, &res); err != nil {
		f.t.Fatalf("getBrowserContexts answered %s", m.Raw)
	}
	return res.DefaultBrowserContextID, res.BrowserContextIDs
}

// targets lists the ids Target.getTargets answers cl.
func (f *fixture) targets(cl *actortest.CDPClient) []string {
	f.t.Helper()
	var res struct {
		TargetInfos []struct{ TargetID string }
	}
	m := f.call(cl, "Target.getTargets", "")
	if err := json.Unmarshal(m.Result, &res); err != nil {
		f.t.Fatalf("getTargets answered %s", m.Raw)
	}
	var ids []string
	for _, ti := range res.TargetInfos {
		ids = append(ids, ti.TargetID)
	}
	slices.Sort(ids)
	return ids
}

// cookies lists name=value of the cookies Storage.getCookies answers cl
// (params: its parameters, "" for none).
func (f *fixture) cookies(cl *actortest.CDPClient, params string) []string {
	f.t.Helper()
	var res struct {
		Cookies []struct{ Name, Value string }
	}
	m := f.call(cl, "Storage.getCookies", params)
	if err := json.Unmarshal(m.Result, &res); err != nil {
		f.t.Fatalf("getCookies answered %s", m.Raw)
	}
	var out []string
	for _, c := range res.Cookies {
		out = append(out, c.Name+"="+c.Value)
	}
	slices.Sort(out)
	return out
}

// getJSON fetches a /json answer of the endpoint.
func (f *fixture) getJSON(method, path string, v any) int {
	f.t.Helper()
	code, body, _ := actortest.HTTPDo(f.t, method, f.inst.Proxy.Endpoint()+path, "")
	if v != nil && code == http.StatusOK {
		if err := json.Unmarshal([]byte(body), v); err != nil {
			f.t.Fatalf("%s: %v in %q", path, err, body)
		}
	}
	return code
}

type listEntry struct {
	ID, Type, URL, WebSocketDebuggerURL, DevtoolsFrontendURL string
}

func (f *fixture) list(prefix string) []listEntry {
	f.t.Helper()
	var entries []listEntry
	if code := f.getJSON(http.MethodGet, prefix+"/json/list", &entries); code != http.StatusOK {
		f.t.Fatalf("%s/json/list: %d", prefix, code)
	}
	return entries
}

func ids(entries []listEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.ID)
	}
	slices.Sort(out)
	return out
}

// errorOf is the code and message of an error answer.
func errorOf(t *testing.T, m actortest.CDPMessage) (int, string) {
	t.Helper()
	code, msg := m.ErrorCode()
	if code == 0 {
		t.Fatalf("want an error answer, got %s", m.Raw)
	}
	return code, msg
}

// eventsWithin collects what cl receives for d.
func eventsWithin(cl *actortest.CDPClient, d time.Duration) []actortest.CDPMessage {
	var out []actortest.CDPMessage
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return out
		}
		m, ok := cl.NextWithin(left)
		if !ok {
			return out
		}
		out = append(out, m)
	}
}

// mentions says a message names a target id anywhere.
func mentions(m actortest.CDPMessage, id string) bool { return strings.Contains(string(m.Raw), id) }

func (f *fixture) context() context.Context { return served.Context(f.t) }

func (f *fixture) snapshotEvery() time.Duration { return served.WorldSnapshotEvery }

// kill ends the browser as kill -9 would, and waits for its actor to know.
func (f *fixture) kill() {
	f.t.Helper()
	st, err := f.inst.Browser.Status(f.context())
	if err != nil || st.Pid == 0 {
		f.t.Fatalf("no browser to kill: %+v %v", st, err)
	}
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		f.t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if s, _ := f.inst.Browser.Status(f.context()); s.Generation != st.Generation || s.State != "running" {
			return
		}
		if time.Now().After(end) {
			f.t.Fatal("the browser actor did not see the kill")
		}
	}
}

// newPageAfterCrash makes a page in cl's world: its first request after the
// crash, which the relay holds until it recovered.
func (f *fixture) newPageAfterCrash(cl *actortest.CDPClient) string {
	f.t.Helper()
	var res struct{ TargetID string }
	id := f.id()
	cl.Send(id, "Target.createTarget", `{"url":"about:blank"}`, "")
	for {
		m := cl.Next()
		if m.ID == nil || *m.ID != id {
			continue // the lost targets' news
		}
		if err := json.Unmarshal(m.Result, &res); err != nil || res.TargetID == "" {
			f.t.Fatalf("createTarget after the crash answered %s", m.Raw)
		}
		return res.TargetID
	}
}

func websocketDial(url string) (*websocket.Conn, *http.Response, error) {
	c, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if c != nil {
		c.Close()
	}
	return c, resp, err
}

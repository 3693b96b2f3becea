package worlds_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// A page made without a context goes into the world's own context, and
// each world's getTargets lists its own pages only; the whole browser's
// lists all.
func TestWorldGetTargetsShowsOnlyTheWorld(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	pa, pb := f.newPage(a), f.newPage(b)
	def, _ := f.defaultContext(f.whole)
	ca, cb := f.contextOf(pa), f.contextOf(pb)
	if ca == def || cb == def || ca == cb || ca == "" || cb == "" {
		t.Fatalf("contexts a %q, b %q, default %q: want two contexts of their own", ca, cb, def)
	}
	if got := f.targets(a); !slices.Equal(got, []string{pa}) {
		t.Errorf("world a lists %v, want only %s", got, pa)
	}
	if got := f.targets(b); !slices.Equal(got, []string{pb}) {
		t.Errorf("world b lists %v, want only %s", got, pb)
	}
	if all := f.targets(f.whole); !slices.Contains(all, pa) || !slices.Contains(all, pb) || len(all) < 3 {
		t.Errorf("the whole browser lists %v, want both worlds' pages and the browser's own", all)
	}
	// The world's own context is its default one; it made no other.
	if d, made := f.defaultContext(a); d != ca || len(made) != 0 {
		t.Errorf("world a's getBrowserContexts: default %q, others %v; want default %q, no others", d, made, ca)
	}
}

// Attaching to, activating, closing or asking about another world's
// target is answered as Chromium answers an id it does not know.
func TestWorldForeignTargetIsUnknown(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	pb := f.newPage(b)
	for _, method := range []string{"Target.attachToTarget", "Target.activateTarget", "Target.closeTarget", "Target.getTargetInfo"} {
		m := f.answer(a, method, fmt.Sprintf(`{"targetId":%q,"flatten":true}`, pb))
		if code, msg := errorOf(t, m); code != -32602 || msg != "No target with given id found" {
			t.Errorf("%s of another world's target: %d %q, want Chromium's -32602 \"No target with given id found\"", method, code, msg)
		}
	}
	if !slices.Contains(f.targets(b), pb) {
		t.Fatal("world a's closeTarget closed world b's page")
	}
	// Its own page, which it learnt of from /json/list and not from events,
	// attaches and runs.
	pa := ""
	if code := f.getJSON(http.MethodPut, "/context/a/json/new?about:blank", &struct{ ID *string }{&pa}); code != http.StatusOK || pa == "" {
		t.Fatalf("/context/a/json/new: %d %q", code, pa)
	}
	var att struct{ SessionID string }
	m := f.call(a, "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, pa))
	if json.Unmarshal(m.Result, &att); att.SessionID == "" {
		t.Fatalf("attach to its own page: %s", m.Raw)
	}
	if m := a.Call(f.id(), "Runtime.evaluate", `{"expression":"1+1"}`, att.SessionID); !strings.Contains(string(m.Result), `"value":2`) {
		t.Fatalf("evaluate on its own page: %s", m.Raw)
	}
}

// Discovery and auto-attach tell a world's client of its own targets
// only; a target of another world that its auto-attach (waiting for the
// debugger, as Playwright asks) caught is let go and runs.
func TestWorldDiscoveryAndAutoAttachAreWalled(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	pb := f.newPage(b)
	_, seen := a.AnswerOf(f.id(), "Target.setDiscoverTargets", `{"discover":true}`)
	_, attached := a.AnswerOf(f.id(), "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}`)
	for _, ev := range append(seen, attached...) {
		t.Errorf("world a was told of a target that is not its own: %s", ev.Raw)
	}
	pb2 := f.newPage(b) // made while a's client auto-attaches, waiting for the debugger
	var att struct{ SessionID string }
	m := f.call(b, "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, pb2))
	_ = json.Unmarshal(m.Result, &att)
	deadline := time.Now().Add(3 * time.Second)
	for {
		id := f.id()
		b.Send(id, "Runtime.evaluate", `{"expression":"2+2"}`, att.SessionID)
		m, _ := b.Answer(id)
		if strings.Contains(string(m.Result), `"value":4`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("world b's new page is held by world a's auto-attach: %s", m.Raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, ev := range eventsWithin(a, 300*time.Millisecond) {
		if mentions(ev, pb) || mentions(ev, pb2) || ev.Method == "Target.attachedToTarget" || ev.Method == "Target.targetCreated" {
			t.Errorf("world a was told of world b's page: %s", ev.Raw)
		}
	}
	// Its own new page is announced and attached, as Chromium does.
	pa := f.newPage(a)
	var created, attachedOwn bool
	for _, ev := range slices.Concat(a.Seen, eventsWithin(a, 300*time.Millisecond)) {
		created = created || (ev.Method == "Target.targetCreated" && mentions(ev, pa))
		attachedOwn = attachedOwn || (ev.Method == "Target.attachedToTarget" && mentions(ev, pa))
	}
	if !created || !attachedOwn {
		t.Errorf("world a's own page: targetCreated %v, attachedToTarget %v; want both", created, attachedOwn)
	}
}

// Cookies set without a context are the world's; a client names another
// world's context in vain.
func TestWorldCookiesAreWalled(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	f.call(a, "Storage.setCookies", `{"cookies":[{"name":"who","value":"a","url":"http://a.test/"}]}`)
	f.call(b, "Storage.setCookies", `{"cookies":[{"name":"who","value":"b","url":"http://b.test/"}]}`)
	if got := f.cookies(a, ""); !slices.Equal(got, []string{"who=a"}) {
		t.Errorf("world a's cookies %v, want [who=a]", got)
	}
	if got := f.cookies(b, ""); !slices.Equal(got, []string{"who=b"}) {
		t.Errorf("world b's cookies %v, want [who=b]", got)
	}
	if got := f.cookies(f.whole, ""); len(got) != 0 {
		t.Errorf("the default context has the worlds' cookies %v", got)
	}
	pb := f.newPage(b)
	cb := f.contextOf(pb)
	m := f.answer(a, "Storage.getCookies", fmt.Sprintf(`{"browserContextId":%q}`, cb))
	if code, msg := errorOf(t, m); code != -32602 || msg != "Failed to find browser context for id "+cb {
		t.Errorf("world a reading world b's cookies: %d %q, want Chromium's unknown context", code, msg)
	}
	// What the wall cannot read does not pass it.
	m = f.answer(a, "Storage.getCookies", `{"browserContextId":5}`)
	if code, msg := errorOf(t, m); code != -32602 || msg != "Invalid parameters" {
		t.Errorf("world a's unreadable getCookies: %d %q", code, msg)
	}
	m = f.answer(a, "Target.createTarget", fmt.Sprintf(`{"url":"about:blank","browserContextId":%q}`, cb))
	if code, msg := errorOf(t, m); code != -32000 || !strings.HasPrefix(msg, "Failed to find browser context with id") {
		t.Errorf("world a making a page in world b: %d %q", code, msg)
	}
}

// A context a world's client makes is the world's: listed, usable and
// disposable there, and nowhere else.
func TestWorldContextsItsClientsMake(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	var made struct{ BrowserContextID string }
	_ = json.Unmarshal(f.call(a, "Target.createBrowserContext", `{}`).Result, &made)
	if _, others := f.defaultContext(a); !slices.Equal(others, []string{made.BrowserContextID}) {
		t.Errorf("world a lists contexts %v, want [%s]", others, made.BrowserContextID)
	}
	if _, others := f.defaultContext(b); len(others) != 0 {
		t.Errorf("world b lists contexts %v, want none", others)
	}
	m := f.call(a, "Target.createTarget", fmt.Sprintf(`{"url":"about:blank","browserContextId":%q}`, made.BrowserContextID))
	var res struct{ TargetID string }
	_ = json.Unmarshal(m.Result, &res)
	if !slices.Contains(f.targets(a), res.TargetID) || slices.Contains(f.targets(b), res.TargetID) {
		t.Errorf("a page in world a's own context is listed in a %v, in b %v", f.targets(a), f.targets(b))
	}
	m = f.answer(b, "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, made.BrowserContextID))
	if code, msg := errorOf(t, m); code != -32000 || msg != "Failed to find context with id "+made.BrowserContextID {
		t.Errorf("world b disposing world a's context: %d %q", code, msg)
	}
	f.call(a, "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, made.BrowserContextID))
	if _, others := f.defaultContext(a); len(others) != 0 {
		t.Errorf("world a lists contexts %v after disposing its own", others)
	}
}

// Browser.close in a world closes the world's pages and the client's
// connection; the browser and the other worlds go on, and the world keeps
// its cookies.
func TestWorldBrowserCloseClosesOnlyTheWorld(t *testing.T) {
	// Chromium's pages go a moment after Target.closeTarget answers; the
	// world's Browser.close answers only once they are gone.
	f := newFixture(t, "--fake-close-delay=300ms")
	a, b := f.world("a"), f.world("b")
	pa, pb := f.newPage(a), f.newPage(b)
	f.call(a, "Storage.setCookies", `{"cookies":[{"name":"kept","value":"1","url":"http://a.test/"}]}`)
	m := f.call(a, "Browser.close", "")
	if string(m.Result) != "{}" {
		t.Fatalf("Browser.close answered %s", m.Raw)
	}
	if slices.Contains(f.targets(f.whole), pa) {
		t.Errorf("world a's page %s is still listed once its Browser.close answered", pa)
	}
	a.WaitClosedWithin(5 * time.Second)
	if st, _ := f.inst.Browser.Status(f.context()); st.Generation != 1 || st.State != "running" {
		t.Fatalf("the browser after a world's Browser.close: %+v", st)
	}
	if got := f.targets(b); !slices.Equal(got, []string{pb}) {
		t.Errorf("world b lists %v after world a's Browser.close, want [%s]", got, pb)
	}
	if slices.Contains(f.targets(f.whole), pa) {
		t.Errorf("world a's page %s is still open", pa)
	}
	again := f.world("a")
	if got := f.targets(again); len(got) != 0 {
		t.Errorf("world a lists %v after its Browser.close", got)
	}
	if got := f.cookies(again, ""); !slices.Equal(got, []string{"kept=1"}) {
		t.Errorf("world a's cookies after its Browser.close: %v", got)
	}
}

// A world outlives its client: a reconnect finds its pages.
func TestWorldReconnectFindsItsPages(t *testing.T) {
	f := newFixture(t)
	a := f.world("a")
	pa := f.newPage(a)
	a.Conn.Close()
	time.Sleep(100 * time.Millisecond)
	if got := f.targets(f.world("a")); !slices.Equal(got, []string{pa}) {
		t.Fatalf("world a after a reconnect lists %v, want [%s]", got, pa)
	}
}

// After a crash the world's client stays connected; the world is made
// again in the new browser (a new context) with its cookies, and pages
// made without a context go into that new context.
func TestWorldIsMadeAgainAfterACrashWithItsCookies(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	f.call(a, "Storage.setCookies", `{"cookies":[{"name":"session","value":"alive","url":"http://a.test/"},{"name":"remember","value":"me","url":"http://a.test/","expires":4102444800}]}`)
	f.call(b, "Storage.setCookies", `{"cookies":[{"name":"other","value":"b","url":"http://b.test/"}]}`)
	before := f.contextOf(f.newPage(a))
	time.Sleep(3 * f.snapshotEvery()) // a snapshot, at least
	f.kill()
	after := f.contextOf(f.newPageAfterCrash(a))
	if after == before || after == "" {
		t.Fatalf("world a's context %q after the crash, %q before: want a new one", after, before)
	}
	if got := f.cookies(a, ""); !slices.Equal(got, []string{"remember=me", "session=alive"}) {
		t.Errorf("world a's cookies after the crash: %v", got)
	}
	if got := f.cookies(b, ""); !slices.Equal(got, []string{"other=b"}) {
		t.Errorf("world b's cookies after the crash: %v", got)
	}
	// The session cookie is a session cookie again, not one that expired.
	var res struct {
		Cookies []struct {
			Name    string
			Session bool
		}
	}
	_ = json.Unmarshal(f.call(a, "Storage.getCookies", "").Result, &res)
	for _, c := range res.Cookies {
		if c.Session != (c.Name == "session") {
			t.Errorf("cookie %s restored with session %v", c.Name, c.Session)
		}
	}
}

// The world's /json surface: its own targets, its own URLs; the whole
// browser's list is Chromium's, browser_ui targets included.
func TestWorldJSONSurface(t *testing.T) {
	f := newFixture(t)
	a, b := f.world("a"), f.world("b")
	pa, pb := f.newPage(a), f.newPage(b)
	la := f.list("/context/a")
	if got := ids(la); !slices.Equal(got, []string{pa}) {
		t.Fatalf("/context/a/json/list %v, want [%s]", got, pa)
	}
	wantWS := strings.Replace(f.inst.Proxy.Endpoint(), "http://", "ws://", 1) + "/context/a/devtools/page/" + pa
	if la[0].WebSocketDebuggerURL != wantWS || !strings.Contains(la[0].DevtoolsFrontendURL, "/context/a/devtools/page/"+pa) {
		t.Errorf("world a's entry %+v: want its URLs under /context/a", la[0])
	}
	var version struct{ WebSocketDebuggerURL string }
	if f.getJSON(http.MethodGet, "/context/a/json/version", &version); !strings.Contains(version.WebSocketDebuggerURL, "/context/a/devtools/browser/") {
		t.Errorf("/context/a/json/version webSocketDebuggerUrl %q", version.WebSocketDebuggerURL)
	}
	if !slices.ContainsFunc(f.list(""), func(e listEntry) bool { return e.Type == "browser_ui" }) {
		t.Errorf("the whole browser's /json/list %v lacks the browser_ui target Chromium lists", ids(f.list("")))
	}
	if all := ids(f.list("")); !slices.Contains(all, pa) || !slices.Contains(all, pb) {
		t.Errorf("the whole browser's /json/list %v lacks the worlds' pages", all)
	}
	if code := f.getJSON(http.MethodGet, "/context/a/json/activate/"+pb, nil); code != http.StatusNotFound {
		t.Errorf("/context/a/json/activate of world b's page: %d, want 404", code)
	}
	if code := f.getJSON(http.MethodGet, "/context/a/json/close/"+pb, nil); code != http.StatusNotFound {
		t.Errorf("/context/a/json/close of world b's page: %d, want 404", code)
	}
	if code := f.getJSON(http.MethodGet, "/context/a/json/new", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /context/a/json/new: %d, want 405 as Chromium", code)
	}
	if _, _, err := websocketDial(f.inst.WS() + "/context/a/devtools/page/" + pb); err == nil {
		t.Errorf("world a's client reached world b's page socket")
	}
	page := actortest.DialCDP(t, wantWS)
	if m := page.Call(1, "Runtime.evaluate", `{"expression":"3+3"}`, ""); !strings.Contains(string(m.Result), `"value":6`) {
		t.Errorf("world a's page socket: %s", m.Raw)
	}
}

// A world name is letters, digits, '.', '_' and '-', at most 64; anything
// else is refused saying so, before any browser starts.
func TestWorldNameRule(t *testing.T) {
	f := &fixture{t: t, inst: served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})}
	for _, name := range []string{"a%20b", "a%2Fb", strings.Repeat("x", 65), "%C3%A9t%C3%A9", "..", ""} {
		code, body, _ := actortest.HTTPDo(t, http.MethodGet, f.inst.Proxy.Endpoint()+"/context/"+name+"/json/version", "")
		if code != http.StatusBadRequest || !strings.Contains(body, "letter") || !strings.Contains(body, "64") {
			t.Errorf("name %q: %d %q, want 400 saying the rule", name, code, body)
		}
	}
	if st, _ := f.inst.Browser.Status(f.context()); st.Generation != 0 {
		t.Errorf("a refused world name launched a browser")
	}
	for _, name := range []string{"agent-1", "A.b_c", strings.Repeat("x", 64)} {
		if code, body, _ := actortest.HTTPDo(t, http.MethodGet, f.inst.Proxy.Endpoint()+"/context/"+name+"/json/version", ""); code != http.StatusOK {
			t.Errorf("name %q refused: %d %s", name, code, body)
		}
	}
}

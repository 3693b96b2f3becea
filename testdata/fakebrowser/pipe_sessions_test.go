package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var sessionIDShape = regexp.MustCompile(`^[0-9A-F]{32}$`)

type attached struct {
	SessionID          string          `json:"sessionId"`
	TargetInfo         json.RawMessage `json:"targetInfo"`
	WaitingForDebugger bool            `json:"waitingForDebugger"`
}

func browserTargetJSON(id string) string {
	return `{"targetId":"` + id + `","type":"browser","title":"","url":"","attached":true,"canAccessOpener":false}`
}

// attachBrowser opens a browser session on the root and checks Chromium's
// announcement: Target.attachedToTarget on the root, before the answer.
func (f *fake) attachBrowser(id int64, browserID string) string {
	f.t.Helper()
	events, answer := f.call(id, "", "Target.attachToBrowserTarget", "")
	session := decodeAs[struct {
		SessionID string `json:"sessionId"`
	}](f.t, f.wantOK(answer, "")).SessionID
	if !sessionIDShape.MatchString(session) {
		f.t.Fatalf("browser session id %q", session)
	}
	if len(events) != 1 || events[0].Method != "Target.attachedToTarget" || events[0].SessionID != "" {
		f.t.Fatalf("before the answer: %v, want one Target.attachedToTarget on the root", events)
	}
	p := decodeAs[attached](f.t, events[0].Params)
	if p.SessionID != session || string(p.TargetInfo) != browserTargetJSON(browserID) || p.WaitingForDebugger {
		f.t.Fatalf("attachedToTarget %s", events[0].Raw)
	}
	return session
}

func (f *fake) attachedSession(events []msg, session, targetID string, waiting bool) string {
	f.t.Helper()
	for _, m := range of(events, session, "Target.attachedToTarget") {
		f.wantLast(m, session)
		p := decodeAs[attached](f.t, m.Params)
		if strings.Contains(string(p.TargetInfo), `"targetId":"`+targetID+`"`) && p.WaitingForDebugger == waiting {
			return p.SessionID
		}
	}
	f.t.Fatalf("no attachedToTarget for %s (waiting %v) on session %s in %v", targetID, waiting, session, events)
	return ""
}

func TestPipeBrowserSessions(t *testing.T) {
	f := startFake(t, "--remote-debugging-pipe")
	_, m := f.call(1, "", "Target.getTargetInfo", "")
	browserID := decodeAs[struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}](t, f.wantOK(m, "")).TargetInfo.TargetID
	if got, want := string(m.Result), `{"targetInfo":`+browserTargetJSON(browserID)+`}`; browserID == "" || got != want {
		t.Fatalf("root getTargetInfo %s, want %s", got, want)
	}

	a := f.attachBrowser(2, browserID)
	b := f.attachBrowser(3, browserID)
	if a == b {
		t.Fatal("two browser sessions with one id")
	}
	_, m = f.call(4, a, "Target.getTargetInfo", "")
	if got := string(f.wantOK(m, a)); got != `{"targetInfo":`+browserTargetJSON(browserID)+`}` {
		t.Fatalf("getTargetInfo on a browser session: %s", got)
	}

	t.Log("the same id on both sessions is answered once on each")
	f.send(command(5, a, "Browser.getVersion", ""))
	f.send(command(5, b, "Browser.getVersion", ""))
	before, _ := f.call(6, "", "Browser.getVersion", "")
	if len(before) != 2 || before[0].SessionID != a || before[1].SessionID != b {
		t.Fatalf("answers to id 5: %v", before)
	}
	for i, s := range []string{a, b} {
		if *before[i].ID != 5 || !strings.Contains(string(f.wantOK(before[i], s)), "FakeChrome") {
			t.Fatalf("answer %s", before[i].Raw)
		}
	}

	t.Log("each browser session has Target state of its own")
	events, m := f.call(7, a, "Target.setDiscoverTargets", `{"discover":true}`)
	f.wantOK(m, a)
	if created := of(events, a, "Target.targetCreated"); len(created) != 2 || len(events) != 2 {
		t.Fatalf("setDiscoverTargets on a: %v", events)
	}
	events, m = f.call(8, b, "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}`)
	f.wantOK(m, b)
	if len(of(events, b, "Target.attachedToTarget")) != 2 || len(of(events, "", "Target.attachedToTarget")) != 0 {
		t.Fatalf("setAutoAttach on b: %v", events)
	}
	events, m = f.call(9, "", "Target.createTarget", `{"url":"about:blank#x"}`)
	x := decodeAs[targetIDParams](t, f.wantOK(m, "")).TargetID
	for _, e := range events {
		if e.SessionID == "" {
			t.Fatalf("an event on the root, which neither discovers nor auto-attaches: %s", e.Raw)
		}
	}
	if c := of(events, a, "Target.targetCreated"); len(c) != 1 || !strings.Contains(string(c[0].Params), x) {
		t.Fatalf("a's targetCreated for %s: %v", x, events)
	}
	bx := f.attachedSession(events, b, x, true)

	t.Log("a child session routes to its browser session; the target waits for b")
	_, m = f.call(10, bx, "Runtime.evaluate", `{"expression":"1+2"}`)
	if m.Error == nil || strings.Contains(string(m.Raw), b) {
		t.Fatalf("evaluate on a target b holds: %s", m.Raw)
	}
	f.wantLast(m, bx)
	events, m = f.call(11, a, "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, x))
	ax := decodeAs[struct {
		SessionID string `json:"sessionId"`
	}](t, f.wantOK(m, a)).SessionID
	if f.attachedSession(events, a, x, false) != ax {
		t.Fatalf("attachedToTarget on a names another session than the answer %s: %v", m.Raw, events)
	}

	t.Log("the Target methods /json/* needs work on a browser session")
	_, m = f.call(12, b, "Target.getTargets", "")
	infos := decodeAs[struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}](t, f.wantOK(m, b)).TargetInfos
	var types []string
	for _, info := range infos {
		types = append(types, info.Type)
	}
	if slices.Contains(types, "browser") || !slices.Contains(types, "page") || !slices.Contains(types, "browser_ui") {
		t.Fatalf("getTargets lists %v", types)
	}
	_, m = f.call(13, a, "Target.activateTarget", fmt.Sprintf(`{"targetId":%q}`, x))
	f.wantOK(m, a)

	t.Log("an unknown session gets Chromium's error")
	f.send(`{"id":14,"method":"Browser.getVersion","sessionId":"NOPE"}`)
	if m := f.mustNext(); string(m.Raw) != `{"id":14,"error":{"code":-32001,"message":"Session with given id not found."},"sessionId":"NOPE"}` {
		t.Fatalf("unknown session: %s", m.Raw)
	}

	t.Log("detaching b disposes its disposeOnDetach context and lets go of the target it held")
	_, m = f.call(15, b, "Target.createBrowserContext", `{"disposeOnDetach":true}`)
	doomed := decodeAs[contextParams](t, f.wantOK(m, b)).BrowserContextID
	_, m = f.call(16, b, "Target.createBrowserContext", "")
	kept := decodeAs[contextParams](t, f.wantOK(m, b)).BrowserContextID
	_, m = f.call(17, b, "Target.createTarget", fmt.Sprintf(`{"url":"about:blank#y","browserContextId":%q}`, doomed))
	y := decodeAs[targetIDParams](t, f.wantOK(m, b)).TargetID

	events, m = f.call(18, "", "Target.detachFromTarget", fmt.Sprintf(`{"sessionId":%q}`, b))
	if string(m.Raw) != `{"id":18,"result":{}}` {
		t.Fatalf("detach answer %s", m.Raw)
	}
	wantDetached := fmt.Sprintf(`{"sessionId":%q,"targetId":%q}`, b, browserID)
	if n := len(events); n == 0 || events[n-1].Method != "Target.detachedFromTarget" || events[n-1].SessionID != "" || string(events[n-1].Params) != wantDetached {
		t.Fatalf("before the answer %v, want last Target.detachedFromTarget %s on the root", events, wantDetached)
	}
	if d := of(events, a, "Target.targetDestroyed"); len(d) != 1 || string(d[0].Params) != fmt.Sprintf(`{"targetId":%q}`, y) {
		t.Fatalf("a did not see %s go: %v", y, events)
	}
	for _, e := range events {
		if e.SessionID == b || e.SessionID == bx {
			t.Fatalf("a message on a session that ended: %s", e.Raw)
		}
	}
	_, m = f.call(19, "", "Target.getBrowserContexts", "")
	if got := string(f.wantOK(m, "")); strings.Contains(got, doomed) || !strings.Contains(got, kept) {
		t.Fatalf("contexts after the detach: %s (disposed %s, kept %s)", got, doomed, kept)
	}
	_, m = f.call(20, a, "Runtime.evaluate", "") // a itself is browser-level
	if m.Error == nil || m.Error.Code != -32601 {
		t.Fatalf("Runtime.evaluate on a browser session: %s", m.Raw)
	}
	_, m = f.call(21, ax, "Runtime.evaluate", `{"expression":"1+2"}`)
	if got := string(f.wantOK(m, ax)); got != `{"result":{"type":"number","value":3,"description":"3"}}` {
		t.Fatalf("evaluate after b let go: %s", got)
	}
	for i, s := range []string{b, bx} {
		_, m = f.call(int64(22+i), s, "Browser.getVersion", "")
		if m.Error == nil || m.Error.Code != -32001 {
			t.Fatalf("a message on ended session %s: %s", s, m.Raw)
		}
		f.wantLast(m, s)
	}
	_, m = f.call(24, a, "Target.closeTarget", fmt.Sprintf(`{"targetId":%q}`, x))
	if got := string(f.wantOK(m, a)); got != `{"success":true}` {
		t.Fatalf("closeTarget on a: %s", got)
	}
}

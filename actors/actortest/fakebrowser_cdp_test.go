package actortest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// --- talking CDP ------------------------------------------------------------

// call sends a command and returns the events that came before its answer,
// and the answer.
func call(c *CDPClient, id int64, sessionID, method, params string) ([]CDPMessage, CDPMessage) {
	c.t.Helper()
	c.Send(id, method, params, sessionID)
	answer, events := c.Answer(id)
	return events, answer
}

// rawID returns a message's id as it was sent, nil when it has none.
func rawID(t testing.TB, m CDPMessage) json.RawMessage {
	t.Helper()
	return decode[struct {
		ID json.RawMessage `json:"id"`
	}](t, m.Raw).ID
}

func decode[T any](t testing.TB, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

type targetInfo struct {
	TargetID         string `json:"targetId"`
	Type             string `json:"type"`
	URL              string `json:"url"`
	Attached         bool   `json:"attached"`
	BrowserContextID string `json:"browserContextId"`
}

type attachedEvent struct {
	SessionID  string     `json:"sessionId"`
	TargetInfo targetInfo `json:"targetInfo"`
}

// methods lists the event names of msgs, in order.
func methods(msgs []CDPMessage) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Method)
	}
	return out
}

func wantResult(t testing.TB, m CDPMessage, want string) {
	t.Helper()
	if m.Error != nil || string(m.Result) != want {
		t.Fatalf("answer error %s result %s; want result %s", m.Error, m.Result, want)
	}
}

func wantError(t testing.TB, m CDPMessage, code int, message string) {
	t.Helper()
	if gotCode, gotMessage := m.ErrorCode(); m.Error == nil || gotCode != code || gotMessage != message {
		t.Fatalf("answer error %s result %s; want error %d %q", m.Error, m.Result, code, message)
	}
}

var sessionIDShape = regexp.MustCompile(`^[0-9A-F]{32}$`)

// --- CDP ------------------------------------------------------------------------

func TestFakeBrowserCDPBrowserConnection(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t)
	c := DialCDP(t, wsURL)

	c.Write(`{"id":-9999,"method":"Browser.getVersion"}`)
	m, _ := c.NextWithin(5 * time.Second)
	if m.ID == nil || *m.ID != -9999 || !strings.Contains(string(m.Result), `"product":"FakeChrome/156.0.0.0"`) {
		t.Fatalf("Browser.getVersion answer: %s", m.Raw)
	}

	events, resp := call(c, 2, "", "Target.setDiscoverTargets", `{"discover":true}`)
	wantResult(t, resp, `{}`)
	if got := methods(events); strings.Join(got, ",") != "Target.targetCreated,Target.targetCreated" {
		t.Errorf("setDiscoverTargets events %v, want two targetCreated first", got)
	}

	// Auto-attach: attachedToTarget for every target, before the answer.
	events, resp = call(c, 3, "", "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`)
	wantResult(t, resp, `{}`)
	var pageSession string
	attachedTypes := map[string]bool{}
	for _, e := range events {
		if e.Method != "Target.attachedToTarget" {
			continue
		}
		a := decode[attachedEvent](t, e.Params)
		if !sessionIDShape.MatchString(a.SessionID) || !a.TargetInfo.Attached {
			t.Errorf("attachedToTarget %s", e.Params)
		}
		attachedTypes[a.TargetInfo.Type] = true
		if a.TargetInfo.Type == "page" {
			pageSession = a.SessionID
		}
	}
	if !attachedTypes["page"] || !attachedTypes["browser_ui"] {
		t.Fatalf("setAutoAttach events %v: want page and browser_ui attached", methods(events))
	}

	for i, tc := range []struct{ expression, result string }{
		{"1", `{"result":{"type":"number","value":1,"description":"1"}}`},
		{"40 + 2", `{"result":{"type":"number","value":42,"description":"42"}}`},
		{"fake:bytes:5", `{"result":{"type":"string","value":"xxxxx"}}`},
		{"document.title", `{"result":{"type":"string","value":"document.title"}}`},
	} {
		_, resp := call(c, int64(10+i), pageSession, "Runtime.evaluate", fmt.Sprintf(`{"expression":%q}`, tc.expression))
		wantResult(t, resp, tc.result)
		if resp.SessionID != pageSession {
			t.Errorf("evaluate answer has sessionId %q, want %q", resp.SessionID, pageSession)
		}
	}
	_, resp = call(c, 20, pageSession, "Page.enable", "")
	wantResult(t, resp, `{}`)
	_, resp = call(c, 21, "F00", "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32001, "Session with given id not found.")
	_, resp = call(c, 22, "", "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32601, "'Runtime.evaluate' wasn't found")

	// Malformed JSON is ignored; a non-integer id is refused without an id.
	c.Write(`{"id":23,"method":`)
	c.Write(`{"id":1.5,"method":"Browser.getVersion"}`)
	m, _ = c.NextWithin(5 * time.Second)
	if code, _ := m.ErrorCode(); rawID(t, m) != nil || m.Error == nil || code != -32600 {
		t.Errorf("answer to id 1.5: %s", m.Raw)
	}
	_, resp = call(c, 24, "", "Browser.getVersion", "")
	if resp.Error != nil {
		t.Errorf("after malformed input: %s", resp.Error)
	}

	// A second client that discovers targets hears about the first one's work.
	other := DialCDP(t, wsURL)
	_, resp = call(other, 1, "", "Target.setDiscoverTargets", `{"discover":true}`)
	wantResult(t, resp, `{}`)

	events, resp = call(c, 30, "", "Target.createTarget", `{"url":"about:blank"}`)
	newTarget := decode[struct{ TargetID string }](t, resp.Result).TargetID
	if got := strings.Join(methods(events), ","); got != "Target.targetCreated,Target.targetInfoChanged,Target.attachedToTarget" {
		t.Errorf("createTarget events %s", got)
	}
	if m, ok := other.NextWithin(5 * time.Second); !ok || m.Method != "Target.targetCreated" {
		t.Errorf("second client got %s, want targetCreated", m.Raw)
	}

	events, resp = call(c, 31, "", "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, newTarget))
	attached := decode[struct{ SessionID string }](t, resp.Result).SessionID
	if len(events) != 1 || events[0].Method != "Target.attachedToTarget" ||
		decode[attachedEvent](t, events[0].Params).SessionID != attached {
		t.Errorf("attachToTarget events %v, answer %s", methods(events), resp.Result)
	}
	_, resp = call(c, 32, "", "Target.attachToTarget", `{"targetId":"NOPE","flatten":true}`)
	wantError(t, resp, -32602, "No target with given id found")

	// Closing answers first, then detaches both sessions and destroys the target.
	_, resp = call(c, 33, "", "Target.closeTarget", fmt.Sprintf(`{"targetId":%q}`, newTarget))
	wantResult(t, resp, `{"success":true}`)
	var after []string
	for range 3 {
		m, _ := c.NextWithin(5 * time.Second)
		after = append(after, m.Method)
		if m.Method == "Target.detachedFromTarget" && decode[targetInfo](t, m.Params).TargetID != newTarget {
			t.Errorf("detachedFromTarget %s", m.Params)
		}
	}
	if strings.Join(after, ",") != "Target.detachedFromTarget,Target.detachedFromTarget,Target.targetDestroyed" {
		t.Errorf("after closeTarget: %v", after)
	}
	_, resp = call(c, 34, attached, "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32001, "Session with given id not found.")

	// Browser contexts.
	_, resp = call(c, 40, "", "Target.createBrowserContext", "")
	ctx := decode[struct{ BrowserContextID string }](t, resp.Result).BrowserContextID
	_, resp = call(c, 41, "", "Target.getBrowserContexts", "")
	if ids := decode[struct{ BrowserContextIDs []string }](t, resp.Result).BrowserContextIDs; len(ids) != 1 || ids[0] != ctx {
		t.Errorf("getBrowserContexts %s, want [%s]", resp.Result, ctx)
	}
	_, resp = call(c, 42, "", "Target.createTarget", fmt.Sprintf(`{"url":"about:blank","browserContextId":%q}`, ctx))
	inContext := decode[struct{ TargetID string }](t, resp.Result).TargetID
	_, resp = call(c, 43, "", "Target.getTargets", "")
	infos := decode[struct{ TargetInfos []targetInfo }](t, resp.Result).TargetInfos
	if len(infos) != 3 || infos[2].TargetID != inContext || infos[2].BrowserContextID != ctx {
		t.Errorf("getTargets %s", resp.Result)
	}
	_, resp = call(c, 44, "", "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, ctx))
	wantResult(t, resp, `{}`)
	_, resp = call(c, 45, "", "Target.getTargets", "")
	if infos := decode[struct{ TargetInfos []targetInfo }](t, resp.Result).TargetInfos; len(infos) != 2 {
		t.Errorf("after disposeBrowserContext getTargets %s", resp.Result)
	}
	_, resp = call(c, 46, "", "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, ctx))
	wantError(t, resp, -32000, "Failed to find context with id "+ctx)
	_, resp = call(c, 47, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":false}`)
	wantError(t, resp, -32602, "Only flatten protocol is supported with browser level auto-attach")

	_, resp = call(c, -9999, "", "Browser.close", "")
	wantResult(t, resp, `{}`)
	if code := p.exitCode(5 * time.Second); code != 0 {
		t.Errorf("exit code after Browser.close = %d, want 0", code)
	}
}

func TestFakeBrowserCDPPageConnection(t *testing.T) {
	t.Parallel()
	_, _, hostPort := startPortFake(t)
	_, body, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/list", "")
	page := decode[[]listEntry](t, json.RawMessage(body))[0]
	c := DialCDP(t, page.WebSocketDebuggerURL)

	_, resp := call(c, 1, "", "Runtime.evaluate", `{"expression":"2+2"}`)
	wantResult(t, resp, `{"result":{"type":"number","value":4,"description":"4"}}`)
	_, resp = call(c, 2, "", "Page.navigate", `{"url":"about:blank"}`)
	wantResult(t, resp, `{}`)

	HTTPDo(t, "GET", "http://"+hostPort+"/json/close/"+page.ID, "")
	if m, ok := c.NextWithin(5 * time.Second); !ok || m.Method != "Inspector.detached" || string(m.Params) != `{"reason":"target_closed"}` {
		t.Errorf("after /json/close the page client got %s", m.Raw)
	}
	c.WaitClosedWithin(5 * time.Second)
}

func TestFakeBrowserCDPLargeMessages(t *testing.T) {
	t.Parallel()
	_, wsURL, _ := startPortFake(t)
	c := DialCDP(t, wsURL)
	c.Patience = time.Minute // 16 MB each way under -race took over 15 s once, on 2 loaded cores
	events, _ := call(c, 1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	session := decode[attachedEvent](t, events[0].Params).SessionID

	const size = 16 << 20
	_, resp := call(c, 2, session, "Runtime.evaluate", fmt.Sprintf(`{"expression":"fake:bytes:%d"}`, size))
	if got := decode[struct{ Result struct{ Value string } }](t, resp.Result).Result.Value; len(got) != size {
		t.Errorf("fake:bytes:%d gave %d bytes", size, len(got))
	}
	big := strings.Repeat("y", size)
	_, resp = call(c, 3, session, "Runtime.evaluate", fmt.Sprintf(`{"expression":%q}`, big))
	if got := decode[struct{ Result struct{ Value string } }](t, resp.Result).Result.Value; got != big {
		t.Errorf("a %d byte expression came back as %d bytes", size, len(got))
	}
}

func TestFakeBrowserPipe(t *testing.T) {
	t.Parallel()
	t.Run("commands and Browser.close", func(t *testing.T) {
		t.Parallel()
		p, c, cmdW := startPipeFake(t, "--headless")
		// Two messages in one write are two messages.
		if _, err := cmdW.Write([]byte(`{"id":1,"method":"Browser.getVersion"}` + "\x00" +
			`{"id":2,"method":"Target.setAutoAttach","params":{"autoAttach":true,"flatten":true}}` + "\x00")); err != nil {
			t.Fatal(err)
		}
		var got []string
		for len(got) == 0 || got[len(got)-1] != "2" {
			m, ok := c.NextWithin(5 * time.Second)
			if !ok {
				t.Fatalf("no more pipe messages after %v", got)
			}
			got = append(got, string(rawID(t, m))+m.Method)
		}
		if strings.Join(got, " ") != "1 Target.attachedToTarget Target.attachedToTarget 2" {
			t.Errorf("pipe messages %v", got)
		}
		_, resp := call(c, -9999, "", "Browser.close", "")
		wantResult(t, resp, `{}`)
		if code := p.exitCode(5 * time.Second); code != 0 {
			t.Errorf("exit code after Browser.close = %d", code)
		}
		if strings.Contains(p.allStderr(), "DevTools listening") {
			t.Error("pipe mode printed a DevTools line")
		}
	})
	t.Run("EOF ends the browser", func(t *testing.T) {
		t.Parallel()
		p, c, cmdW := startPipeFake(t)
		_, resp := call(c, 1, "", "Browser.getVersion", "")
		if resp.Error != nil {
			t.Fatalf("%s", resp.Error)
		}
		cmdW.Close()
		if code := p.exitCode(5 * time.Second); code != 0 {
			t.Errorf("exit code after EOF = %d", code)
		}
	})
	t.Run("with a port too", func(t *testing.T) {
		t.Parallel()
		p, c, _ := startPipeFake(t, "--remote-debugging-port=0")
		wsURL, _, _ := p.ready()
		_, resp := call(c, 1, "", "Browser.getVersion", "")
		wantResult(t, resp, string(dialCDPCall(t, wsURL)))
	})
	t.Run("fds not open", func(t *testing.T) {
		t.Parallel()
		p := startFake(t, nil, "--remote-debugging-pipe")
		if code := p.exitCode(5 * time.Second); code != 13 {
			t.Errorf("exit code = %d, want 13", code)
		}
		p.waitLine(regexp.MustCompile(`Remote debugging pipe file descriptors are not open\.$`), time.Second)
	})
}

// dialCDPCall asks a fake for its version over a websocket.
func dialCDPCall(t testing.TB, wsURL string) json.RawMessage {
	t.Helper()
	_, resp := call(DialCDP(t, wsURL), 1, "", "Browser.getVersion", "")
	return resp.Result
}

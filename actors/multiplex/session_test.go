package multiplex

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

func openBrowser(t *testing.T, c *Connection) *Session {
	t.Helper()
	s, err := c.OpenBrowser(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(0, "") })
	return s
}

func write(t *testing.T, s *Session, msg string) {
	t.Helper()
	if err := s.Write([]byte(msg), false); err != nil {
		t.Fatalf("write %s: %v", msg, err)
	}
}

// next reads the session's next message, failing after 5 s.
func next(t *testing.T, s *Session) string {
	t.Helper()
	got := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		m := transport.NewMessage()
		defer m.Release()
		if err := s.Read(m); err != nil {
			errc <- err
			return
		}
		got <- string(m.B)
	}()
	select {
	case msg := <-got:
		return msg
	case err := <-errc:
		t.Fatalf("read: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("no message within 5 s")
	}
	return ""
}

func TestEachClientIsASessionOfItsOwnAndNeverSeesItsID(t *testing.T) {
	p, c := newPeer(t)
	a, b := openBrowser(t, c), openBrowser(t, c)
	if a.id == b.id {
		t.Fatalf("two clients share session %s", a.id)
	}
	write(t, a, `{"id":7,"method":"Target.setDiscoverTargets","params":{"discover":true}}`)
	write(t, b, `{"id":7,"method":"Browser.getVersion"}`)
	if got, want := next(t, a), `{"id":7,"result":{"method":"Target.setDiscoverTargets","session":"S1"}}`; got != want {
		t.Errorf("a got %s, want %s", got, want)
	}
	if got, want := next(t, b), `{"id":7,"result":{"method":"Browser.getVersion","session":"S2"}}`; got != want {
		t.Errorf("b got %s, want %s", got, want)
	}
	// The browser saw each with its session: same id, two sessions.
	var sessions []string
	for _, m := range p.received() {
		if m["id"] == 7.0 {
			sessions = append(sessions, m["sessionId"].(string))
		}
	}
	if strings.Join(sessions, ",") != "S1,S2" {
		t.Errorf("the browser saw id 7 on sessions %v, want S1,S2", sessions)
	}
}

func TestAnEmptyObjectAndSpacesStillTakeTheSessionID(t *testing.T) {
	p, c := newPeer(t)
	s := openBrowser(t, c)
	write(t, s, ` { } `)
	write(t, s, `{ "id":3, "method":"X.y" }`)
	next(t, s)
	deadline := time.Now().Add(5 * time.Second)
	for len(p.received()) < 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := p.received()
	if len(got) < 5 || got[3]["sessionId"] != "S1" || got[4]["sessionId"] != "S1" || got[4]["method"] != "X.y" {
		t.Fatalf("the browser got %v", got)
	}
}

func TestChildSessionsGoToTheClientThatAttachedThem(t *testing.T) {
	_, c := newPeer(t)
	a, b := openBrowser(t, c), openBrowser(t, c)
	write(t, a, `{"id":1,"method":"Target.attachToTarget","params":{"targetId":"PAGE","flatten":true}}`)
	if ev := next(t, a); !strings.HasPrefix(ev, `{"method":"Target.attachedToTarget","params":{"sessionId":"C-S1"`) || strings.HasSuffix(ev, `"sessionId":"S1"}`) {
		t.Fatalf("a got %s: want the attach event without its own session id", ev)
	}
	if got := next(t, a); got != `{"id":1,"result":{"sessionId":"C-S1"}}` {
		t.Fatalf("a got %s", got)
	}
	write(t, a, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"C-S1"}`)
	if got, want := next(t, a), `{"id":2,"result":{"method":"Runtime.evaluate","session":"C-S1"},"sessionId":"C-S1"}`; got != want {
		t.Fatalf("a got %s, want %s", got, want)
	}
	// b does not own a's child: answered as Chromium answers an unknown session.
	write(t, b, `{"id":9,"method":"Runtime.evaluate","sessionId":"C-S1"}`)
	if got, want := next(t, b), `{"id":9,"error":{"code":-32001,"message":"Session with given id not found."},"sessionId":"C-S1"}`; got != want {
		t.Fatalf("b got %s, want %s", got, want)
	}
	// Detached, the child is a's no more.
	write(t, a, `{"id":3,"method":"Test.detachChild"}`)
	next(t, a)
	next(t, a)
	write(t, a, `{"sessionId":"C-S1","id":4,"method":"Runtime.evaluate"}`)
	if got := next(t, a); !strings.Contains(got, `"code":-32001`) {
		t.Fatalf("a wrote to its detached child and got %s", got)
	}
}

func TestClosingASessionDetachesIt(t *testing.T) {
	p, c := newPeer(t)
	s := openBrowser(t, c)
	s.Close(1000, "")
	if err := s.Write([]byte(`{"id":1,"method":"X"}`), false); err == nil {
		t.Error("a closed session took a write")
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range p.received() {
			if params, _ := m["params"].(map[string]any); m["method"] == "Target.detachFromTarget" && params["sessionId"] == "S1" {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the browser never saw the session detached: %v", p.received())
}

func TestTheBrowsersEndReachesEverySessionAfterWhatCameBefore(t *testing.T) {
	p, c := newPeer(t)
	s := openBrowser(t, c)
	write(t, s, `{"id":1,"method":"X"}`)
	for len(p.received()) < 4 {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the answer is on its way
	p.stop()
	<-c.Done()
	if got := next(t, s); !strings.HasPrefix(got, `{"id":1,`) {
		t.Fatalf("got %s before the end", got)
	}
	m := transport.NewMessage()
	defer m.Release()
	if err := s.Read(m); !errors.Is(err, transport.ErrPipeClosed) {
		t.Fatalf("read after the end: %v, want ErrPipeClosed", err)
	}
	if _, err := c.OpenBrowser(t.Context()); !errors.Is(err, transport.ErrPipeClosed) {
		t.Fatalf("open after the end: %v", err)
	}
}

func TestAClientThatDoesNotReadLosesOnlyItsSession(t *testing.T) {
	_, c := newPeer(t)
	defer func(v int) { maxQueued = v }(maxQueued)
	maxQueued = 64 << 10
	lazy, busy := openBrowser(t, c), openBrowser(t, c)
	write(t, lazy, `{"id":1,"method":"Test.flood","params":{"n":2000}}`)
	write(t, busy, `{"id":2,"method":"X"}`)
	if got := next(t, busy); !strings.HasPrefix(got, `{"id":2,`) {
		t.Fatalf("the other client got %s", got)
	}
	m := transport.NewMessage()
	defer m.Release()
	var err error
	for err == nil {
		err = lazy.Read(m)
	}
	if !errors.Is(err, errOverflow) {
		t.Fatalf("the flooded session ended with %v, want errOverflow", err)
	}
}

func TestAPageSocketIsASessionOnItsTarget(t *testing.T) {
	_, c := newPeer(t)
	s, err := c.DialWebSocket(t.Context(), "ws://"+Host+"/devtools/page/PAGE", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(0, "")
	if err := s.Write([]byte(`{"id":1,"method":"Runtime.evaluate"}`), false); err != nil {
		t.Fatal(err)
	}
	if got, want := next(t, s.(*Session)), `{"id":1,"result":{"method":"Runtime.evaluate","session":"P1"}}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	_, err = c.DialWebSocket(t.Context(), "ws://"+Host+"/devtools/page/GONE", 0)
	var de *transport.DialError
	if !errors.As(err, &de) || de.Status != 404 {
		t.Fatalf("a page that is not there: %v, want a 404 DialError", err)
	}
}

func TestSessionsLeaveNoGoroutineBehind(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		_, c := newPeer(t)
		for range 20 {
			s, err := c.OpenBrowser(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			s.Close(0, "")
		}
		c.Close()
	}()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines before, %d after", before, n)
	}
}

func TestTailSession(t *testing.T) {
	for _, tc := range []struct{ msg, id string }{
		{`{"id":1,"result":{},"sessionId":"AB"}`, "AB"},
		{`{"method":"X","params":{"sessionId":"IN"}}`, ""},
		{`{"id":1,"result":"a\",\"sessionId\":\"X"}`, ""},
		{`{"sessionId":"AB","id":1}`, ""},
		{`{}`, ""},
	} {
		id, at := tailSession([]byte(tc.msg))
		if string(id) != tc.id || (tc.id == "") != (at < 0) {
			t.Errorf("tailSession(%s) = %q at %d, want %q", tc.msg, id, at, tc.id)
		}
	}
	if got := string(withoutSessionID([]byte(`{"sessionId":"AB","id":1,"x":{"sessionId":"in"}}`))); got != `{"id":1,"x":{"sessionId":"in"}}` {
		t.Errorf("withoutSessionID: %s", got)
	}
}

func TestJSONIsAnsweredFromCDP(t *testing.T) {
	_, c := newPeer(t)
	get := func(method, path string) (int, string) {
		req, _ := http.NewRequestWithContext(t.Context(), method, "http://"+Host+path, nil)
		resp, err := (&http.Client{Transport: c}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("GET", "/json/version")
	var v map[string]string
	if code != 200 || json.Unmarshal([]byte(body), &v) != nil || v["Browser"] != "Chrome/148.0" ||
		v["webSocketDebuggerUrl"] != "ws://"+Host+"/devtools/browser/BROWSER" {
		t.Errorf("/json/version: %d %s", code, body)
	}
	code, body = get("GET", "/json/list")
	var list []map[string]string
	if code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list) != 1 || list[0]["id"] != "PAGE" ||
		list[0]["webSocketDebuggerUrl"] != "ws://"+Host+"/devtools/page/PAGE" {
		t.Errorf("/json/list: %d %s (want the page alone, no tab)", code, body)
	}
	if code, body = get("GET", "/json/new"); code != 405 {
		t.Errorf("GET /json/new: %d %s", code, body)
	}
	if code, body = get("PUT", "/json/new?about:blank"); code != 200 || !strings.Contains(body, `"id": "NEW"`) {
		t.Errorf("PUT /json/new: %d %s", code, body)
	}
	if code, body = get("GET", "/json/activate/PAGE"); code != 200 || body != "Target activated" {
		t.Errorf("/json/activate: %d %s", code, body)
	}
	if code, body = get("GET", "/json/close/GONE"); code != 404 || body != "No such target id: GONE" {
		t.Errorf("/json/close of nothing: %d %s", code, body)
	}
	if code, body = get("GET", "/json/protocol"); code != 404 || !strings.Contains(body, "pipe") {
		t.Errorf("/json/protocol: %d %s", code, body)
	}
}

func TestASecondSessionIDNeverReachesTheBrowser(t *testing.T) {
	p, c := newPeer(t)
	a, b := openBrowser(t, c), openBrowser(t, c)
	write(t, a, `{"id":1,"method":"Target.attachToTarget","params":{"targetId":"PAGE","flatten":true}}`)
	next(t, a)
	next(t, a)
	before := len(p.received())
	// b names a's child first and a session of its own last.
	write(t, b, `{"sessionId":"C-S1","id":2,"method":"Runtime.evaluate","sessionId":"S2"}`)
	if got := next(t, b); !strings.Contains(got, `"id":2,"error":{"code":-32600`) {
		t.Fatalf("b got %s, want the message refused", got)
	}
	time.Sleep(50 * time.Millisecond)
	if got := p.received()[before:]; len(got) != 0 {
		t.Fatalf("the browser got %v", got)
	}
}

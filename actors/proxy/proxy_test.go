package proxy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/fsm"
)

func httpDo(t *testing.T, method, url, host string) (int, string) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, method, url, host)
	return code, body
}

func TestNonLoopbackHostIsRefusedWithoutLaunching(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	for _, host := range []string{"evil.example", "evil.example:80", "10.0.0.1", "127.0.0.1.nip.io"} {
		code, body := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/version", host)
		if code != http.StatusForbidden || !strings.Contains(body, "not a loopback address") {
			t.Errorf("Host %s: %d %q, want 403 naming the rule", host, code, body)
		}
	}
	if st, _ := inst.Browser.Status(served.Context(t)); st.State != fsm.BrowserIdle || st.Generation != 0 {
		t.Fatalf("a refused request launched a browser: %+v", st)
	}
	for _, host := range []string{"localhost", fmt.Sprintf("localhost:%d", inst.Proxy.Port()), fmt.Sprintf("[::1]:%d", inst.Proxy.Port())} {
		if code, body := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/version", host); code != http.StatusOK {
			t.Errorf("Host %s refused: %d %s", host, code, body)
		}
	}
}

func TestConcurrentFirstRequestsLaunchOnce(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t, "--fake-start-delay=200ms"), proxy.Spec{})
	var wg sync.WaitGroup
	codes := make([]int, 30)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/json/version"
			if i%3 == 1 {
				path = "/json/list"
			}
			if i%3 == 2 { // a websocket upgrade is a first request too
				c, resp, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser/x", nil)
				if err == nil {
					c.Close()
					codes[i] = resp.StatusCode
				}
				return
			}
			codes[i], _ = httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+path, "")
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK && c != http.StatusSwitchingProtocols {
			t.Errorf("request %d: %d", i, c)
		}
	}
	if st, _ := inst.Browser.Status(served.Context(t)); st.Generation != 1 {
		t.Fatalf("generation %d after concurrent first requests, want exactly one launch", st.Generation)
	}
}

func TestJSONSurfaceIsRewrittenToTheEndpoint(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ep := inst.Proxy.Endpoint()
	host := strings.TrimPrefix(ep, "http://")
	for _, path := range []string{"/json/version", "/json/version/", "/json", "/json/list"} {
		code, body := httpDo(t, http.MethodGet, ep+path, "")
		if code != http.StatusOK || !strings.Contains(body, "ws://"+host+"/devtools/") {
			t.Fatalf("%s: %d %s: want URLs on %s", path, code, body, host)
		}
		browser, _ := inst.Browser.EnsureRunning(served.Context(t))
		if strings.Contains(body, browser.HostPort) {
			t.Fatalf("%s leaks the browser's own address %s: %s", path, browser.HostPort, body)
		}
	}
	code, body := httpDo(t, http.MethodPut, ep+"/json/new?about:blank", "")
	var target struct{ ID, WebSocketDebuggerURL string }
	if code != http.StatusOK || json.Unmarshal([]byte(body), &target) != nil || !strings.Contains(target.WebSocketDebuggerURL, host) {
		t.Fatalf("PUT /json/new: %d %s", code, body)
	}
	if code, _ := httpDo(t, http.MethodGet, ep+"/json/new", ""); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /json/new: %d, want the browser's 405", code)
	}
	if code, _ := httpDo(t, http.MethodGet, ep+"/json/activate/"+target.ID, ""); code != http.StatusOK {
		t.Errorf("activate: %d", code)
	}
	if code, _ := httpDo(t, http.MethodGet, ep+"/json/close/nope", ""); code != http.StatusNotFound {
		t.Errorf("close of a bad id: %d, want 404", code)
	}
	// A browser on its debugging pipe has no HTTP server to serve the schema.
	if code, body := httpDo(t, http.MethodGet, ep+"/json/protocol", ""); code != http.StatusNotFound || !strings.Contains(body, "debugging pipe") {
		t.Errorf("/json/protocol: %d %s, want 404 saying why", code, body)
	}
}

// cdpCall sends one command and returns the response with the same id,
// skipping events.
func cdpCall(t *testing.T, c *websocket.Conn, id int, method, params, session string) map[string]any {
	t.Helper()
	msg := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		msg += `,"params":` + params
	}
	if session != "" {
		msg += fmt.Sprintf(`,"sessionId":%q`, session)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte(msg+"}")); err != nil {
		t.Fatalf("write %s: %v", method, err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read answer to %s: %v", method, err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("bad JSON from the relay: %v: %s", err, data)
		}
		if got, ok := m["id"].(float64); ok && int(got) == id {
			return m
		}
	}
}

func TestBrowserAndPageSocketsAreRelayed(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	c, _, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser/any-id", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if r := cdpCall(t, c, -9999, "Browser.getVersion", "", ""); r["result"] == nil {
		t.Fatalf("Browser.getVersion: %v", r)
	}
	var list []struct{ Type, ID, WebSocketDebuggerURL string }
	_, body := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/list", "")
	_ = json.Unmarshal([]byte(body), &list)
	var pageURL string
	for _, target := range list {
		if target.Type == "page" {
			pageURL = target.WebSocketDebuggerURL
		}
	}
	p, _, err := websocket.DefaultDialer.Dial(pageURL, nil)
	if err != nil {
		t.Fatalf("page socket %s: %v", pageURL, err)
	}
	defer p.Close()
	if r := cdpCall(t, p, 1, "Runtime.evaluate", `{"expression":"1+1"}`, ""); fmt.Sprint(r["result"]) == "" {
		t.Fatalf("evaluate on the page socket: %v", r)
	}
	// No such target: 404, before any upgrade.
	_, resp, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/page/NOPE", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown page: %v %v, want 404", err, resp)
	}
	if body, _ := io.ReadAll(resp.Body); !strings.Contains(string(body), "could not connect to the browser") {
		t.Errorf("refusal %q does not say what failed", body)
	}
}

func TestForeignOriginIsRefusedAndNeverForwarded(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{AllowOrigins: []string{"http://allowed.example"}})
	h := http.Header{"Origin": {"http://evil.example"}}
	_, resp, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", h)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign Origin: %v %v, want 403", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	// The spec has no edge words here: the plain ones name the setting.
	if !strings.Contains(string(body), "start the coordinator with allow origin http://evil.example") {
		t.Errorf("refusal %q does not say how to allow it", body)
	}
	// Allowed here; the fake browser, like Chromium, would answer 403 if the
	// Origin reached it.
	h.Set("Origin", "http://allowed.example")
	c, _, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", h)
	if err != nil {
		t.Fatalf("allowed Origin: %v", err)
	}
	defer c.Close()
	cdpCall(t, c, 1, "Browser.getVersion", "", "")
	h.Set("Origin", inst.Proxy.Endpoint()) // the endpoint's own origin
	c2, _, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", h)
	if err != nil {
		t.Fatalf("same-origin: %v", err)
	}
	c2.Close()
}

func TestOversizedMessageClosesWithAReason(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{MaxMessage: 1024})
	c, _, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	big := fmt.Sprintf(`{"id":1,"method":"Runtime.evaluate","params":{"expression":%q}}`, strings.Repeat("x", 4096))
	_ = c.WriteMessage(websocket.TextMessage, []byte(big))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _, err = c.ReadMessage()
	var ce *websocket.CloseError
	if !asCloseError(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("got %v, want a 1009 (message too big) close", err)
	}
	// The endpoint itself is unharmed.
	if code, _ := httpDo(t, http.MethodGet, inst.Proxy.Endpoint()+"/json/version", ""); code != http.StatusOK {
		t.Fatalf("endpoint after an oversized message: %d", code)
	}
}

func TestMalformedFramesDoNotHarmTheEndpoint(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(inst.Proxy.Endpoint(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /devtools/browser HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	status, _ := bufio.NewReader(conn).ReadString('\n')
	if !strings.Contains(status, "101") {
		t.Fatalf("upgrade: %q", status)
	}
	_, _ = conn.Write([]byte{0xff, 0xff, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06}) // not a valid frame (unmasked, reserved bits)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.ReadAll(conn) // the relay closes it
	c, _, err := websocket.DefaultDialer.Dial(inst.WS()+"/devtools/browser", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cdpCall(t, c, 7, "Browser.getVersion", "", "")
	// The bad relay closed its socket before it unregisters: wait for that.
	n := -1
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if n, _ = inst.Proxy.Clients(served.Context(t)); n == 1 {
			break
		}
	}
	if n != 1 {
		t.Fatalf("clients %d, want 1 (the bad one unregistered)", n)
	}
}

func asCloseError(err error, target **websocket.CloseError) bool {
	ce, ok := err.(*websocket.CloseError)
	if ok {
		*target = ce
	}
	return ok
}

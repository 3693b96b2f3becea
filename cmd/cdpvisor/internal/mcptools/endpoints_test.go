package mcptools

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The tests' clients of an instance's endpoint, as cmd/cdpvisor's tests
// have them for serve.

// endpointAnswers checks that a client on the endpoint gets a browser.
func endpointAnswers(t *testing.T, endpoint string) {
	t.Helper()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, endpoint+"/json/version", "")
	if code != http.StatusOK || !strings.Contains(body, "webSocketDebuggerUrl") {
		t.Fatalf("%s/json/version: %d %s", endpoint, code, body)
	}
}

// wsOf is the endpoint's CDP browser socket.
func wsOf(endpoint string) string {
	u, _ := url.Parse(endpoint)
	return "ws://" + u.Host + "/devtools/browser"
}

// bidiOf is the endpoint's WebDriver BiDi socket.
func bidiOf(endpoint string) string {
	u, _ := url.Parse(endpoint)
	return "ws://" + u.Host + "/session"
}

// dialBiDi connects to the endpoint's /session and checks that Firefox
// answers session.status through it.
func dialBiDi(t *testing.T, endpoint string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(bidiOf(endpoint), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := c.WriteJSON(map[string]any{"id": 1, "method": "session.status", "params": map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	var reply struct {
		ID   int    `json:"id"`
		Type string `json:"type"`
	}
	if err := c.ReadJSON(&reply); err != nil || reply.ID != 1 || reply.Type != "success" {
		t.Fatalf("session.status through the endpoint: %+v, %v", reply, err)
	}
	_ = c.SetReadDeadline(time.Time{})
	return c
}

// waitGone waits up to 5 s for pid to end.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); actortest.Alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("pid %d still alive", pid)
		}
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// bidiOf is the endpoint's WebDriver BiDi socket.
func bidiOf(endpoint string) string {
	u, _ := url.Parse(endpoint)
	return "ws://" + u.Host + "/session"
}

// Firefox behind the stable endpoint: none runs before the first /session
// upgrade; Puppeteer over BiDi works through it, given the socket or the
// endpoint (/json/version names the socket); the hang probe leaves it
// alone; the CDP socket is refused with where to go instead; SIGTERM ends
// serve, Firefox and its profile.
func TestServeFirefoxOverBiDi(t *testing.T) {
	firefox := actortest.Firefox(t)
	actortest.ClientsDir(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", firefox, "--state-dir", stateDir, "--hang-timeout", "3s")
	// The CDP socket is refused with where to connect, before any launch.
	_, resp, err := websocket.DefaultDialer.Dial(wsOf(s.endpoint), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("CDP socket of a Firefox endpoint: %v, %v; want 404", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "runs Firefox, which speaks WebDriver BiDi, not CDP: connect to /session") {
		t.Errorf("refusal %q does not say where to connect", body)
	}
	// Host and Origin rules as for CDP, checked before anything launches.
	_, resp, err = websocket.DefaultDialer.Dial(bidiOf(s.endpoint), http.Header{"Origin": {"http://evil.example"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("/session with a foreign Origin: %v %v, want 403", resp, err)
	}
	req, _ := http.NewRequest("GET", s.endpoint+"/session", nil)
	req.Host = "evil.example"
	for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} {
		req.Header.Set(k, v)
	}
	if resp, err = http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("/session with Host evil.example: %v %v, want 403", resp, err)
	}
	resp.Body.Close()
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("browsers before any BiDi client: %v, want none (lazy launch)", b)
	}
	var st struct{ WS string }
	readJSONFile(t, filepath.Join(stateDir, fmt.Sprintf("coordinator-%d.json", s.cmd.Process.Pid)), &st)
	if st.WS != bidiOf(s.endpoint) {
		t.Errorf("state file ws %q, want the BiDi socket %s", st.WS, bidiOf(s.endpoint))
	}
	// The socket itself, and the endpoint alone (Puppeteer reads /json/version).
	for _, target := range []string{bidiOf(s.endpoint), s.endpoint} {
		out, err := actortest.NodeScript(t, 60*time.Second, "puppeteer_bidi.mjs", target)
		if err != nil || !strings.Contains(out, `"result":2`) || !strings.Contains(out, `"title":"bidi"`) || !strings.Contains(out, `"version":"firefox/`) {
			t.Fatalf("puppeteer over BiDi to %s: %v: %s", target, err, out)
		}
	}
	var version struct{ WebSocketDebuggerURL, Protocol string }
	getJSON(t, s.endpoint+"/json/version", &version)
	if version.WebSocketDebuggerURL != bidiOf(s.endpoint) || version.Protocol != "webDriverBiDi" {
		t.Errorf("/json/version of a Firefox endpoint: %+v, want %s over webDriverBiDi", version, bidiOf(s.endpoint))
	}
	browser := onlyBrowser(t, s.cmd.Process.Pid, firefox)
	out, _, _ := runCLI(t, nil, "status", "--json", "--state-dir", stateDir)
	var status []struct {
		Instances []struct{ WS, Protocol string }
	}
	if err := json.Unmarshal([]byte(out), &status); err != nil || len(status) != 1 || len(status[0].Instances) != 1 ||
		status[0].Instances[0].Protocol != "bidi" || status[0].Instances[0].WS != bidiOf(s.endpoint) {
		t.Errorf("status --json of a Firefox endpoint: %v %s; want protocol bidi and ws %s", err, out, bidiOf(s.endpoint))
	}
	// The hang probe asks session.status, which Firefox answers with or
	// without a session: a healthy Firefox is never declared hung.
	time.Sleep(7500 * time.Millisecond)
	if again := onlyBrowser(t, s.cmd.Process.Pid, firefox); again != browser {
		t.Fatalf("Firefox %d was replaced by %d within 7.5 s of a 3 s hang timeout", browser, again)
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}
	if actortest.Alive(browser) {
		t.Errorf("Firefox %d outlived serve", browser)
	}
	if left := leftovers(s.cmd.Process.Pid, stateDir); len(left) > 0 {
		t.Errorf("left after SIGTERM: %v", left)
	}
}

// kill -9 of the coordinator with a BiDi client connected: the watchdog
// ends Firefox and removes its profile and the state file within 2 s.
func TestKillNineOfTheCoordinatorLeavesNoFirefox(t *testing.T) {
	firefox := actortest.Firefox(t)
	stateDir := t.TempDir()
	s := startServe(t, nil, "--browser", firefox, "--state-dir", stateDir)
	client, _, err := websocket.DefaultDialer.Dial(bidiOf(s.endpoint), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	browser := onlyBrowser(t, s.cmd.Process.Pid, firefox)
	_ = s.cmd.Process.Kill()
	waitClean(t, browser, s.cmd.Process.Pid, stateDir)
}

// One Puppeteer Browser over BiDi survives kill -9 of Firefox, cycle after
// cycle: its next request relaunches Firefox, the relay makes the client's
// session again (session.new with its capabilities, its subscriptions) and
// tells it its pages are gone; newPage and evaluate work on the same object.
func TestPuppeteerOverBiDiSurvivesFirefoxKills(t *testing.T) {
	firefox := actortest.Firefox(t)
	const cycles = 3
	s := startServe(t, nil, "--browser", firefox, "--state-dir", t.TempDir())
	client := actortest.StartLineScript(t, 4*time.Minute, "puppeteer_bidi_survive.mjs", bidiOf(s.endpoint), fmt.Sprint(cycles))
	killCycles(t, client, cycles, func() int { return onlyBrowser(t, s.cmd.Process.Pid, firefox) })
}

// A raw BiDi client keeps its socket across kill -9 of Firefox: its next
// command relaunches Firefox and is answered there, in the session the
// relay made again; the subscription id it holds still unsubscribes.
func TestBiDiClientKeepsItsSessionAcrossAFirefoxKill(t *testing.T) {
	firefox := actortest.Firefox(t)
	s := startServe(t, nil, "--browser", firefox, "--state-dir", t.TempDir())
	c := dialBiDi(t, s.endpoint)
	call := func(id int, method string, params any) json.RawMessage {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		if err := c.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
			t.Fatal(err)
		}
		for {
			var m struct {
				ID      int
				Type    string
				Method  string
				Result  json.RawMessage
				Error   string
				Message string
			}
			if err := c.ReadJSON(&m); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			if m.Type == "event" {
				continue
			}
			if m.ID != id || m.Type != "success" {
				t.Fatalf("%s: %+v", method, m)
			}
			return m.Result
		}
	}
	call(2, "session.new", map[string]any{"capabilities": map[string]any{}})
	var sub struct{ Subscription string }
	_ = json.Unmarshal(call(3, "session.subscribe", map[string]any{"events": []string{"browsingContext.contextCreated"}}), &sub)
	if sub.Subscription == "" {
		t.Fatal("no subscription id")
	}
	browser := onlyBrowser(t, s.cmd.Process.Pid, firefox)
	actortest.KillPid(t, browser)
	waitGone(t, browser)
	// session.new again would fail if the relay had not made the session:
	// getTree needs one.
	call(4, "browsingContext.getTree", map[string]any{})
	if again := onlyBrowser(t, s.cmd.Process.Pid, firefox); again == browser {
		t.Fatalf("still pid %d", again)
	}
	call(5, "session.unsubscribe", map[string]any{"subscriptions": []string{sub.Subscription}})
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
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

// Firefox's own profile switches are refused before anything starts.
func TestServeRefusesFirefoxProfileArgs(t *testing.T) {
	firefox := actortest.Firefox(t)
	stdout, stderr, code := runCLI(t, nil, "serve", "--state-dir", t.TempDir(), "--browser", firefox, "--browser-arg", "-profile")
	if code != 2 || !strings.Contains(stderr, `--browser-arg: the browser switch "profile" is cdpvisor's to set; give the profile with --user-data-dir instead`) {
		t.Fatalf("code %d (want 2), stderr %q", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
}

// Firefox holds one BiDi session and keeps it after its socket closes: a
// client that leaves without session.end (a crashed tool) would lock every
// later client out. The relay ends the session it leaves behind.
func TestALeavingBiDiClientsSessionIsEnded(t *testing.T) {
	firefox := actortest.Firefox(t)
	s := startServe(t, nil, "--browser", firefox, "--state-dir", t.TempDir())
	for i := range 2 {
		c := dialBiDi(t, s.endpoint)
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		if err := c.WriteJSON(map[string]any{"id": 2, "method": "session.new", "params": map[string]any{"capabilities": map[string]any{}}}); err != nil {
			t.Fatal(err)
		}
		var reply struct{ Type, Message string }
		if err := c.ReadJSON(&reply); err != nil || reply.Type != "success" {
			t.Fatalf("client %d: session.new: %+v %v", i+1, reply, err)
		}
		c.UnderlyingConn().Close() // gone without session.end or a close frame
		time.Sleep(200 * time.Millisecond)
	}
}

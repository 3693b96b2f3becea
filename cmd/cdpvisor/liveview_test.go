package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "write the live view's screenshots into docs/ (docs/live-view.md shows them)")

// Issue 36, with real clients: a human on /ui (Playwright driving Chromium)
// watches a Puppeteer agent and a Playwright agent, each in its world,
// takes one over, types into its page, holds its navigation until the hand
// back, and answers a real MCP client's request_human; a foreign Origin is
// refused (testdata/clients/liveview_e2e.mjs says each check).
func TestLiveViewWithRealClients(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	t.Setenv("CDPVISOR_STATE_DIR", t.TempDir())
	work := t.TempDir()
	shots := work
	if *updateScreenshots {
		abs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
		if err != nil {
			t.Fatal(err)
		}
		shots = abs
	}
	out, err := actortest.NodeScript(t, 4*time.Minute, "liveview_e2e.mjs", binary, chromium, work, shots)
	if err != nil {
		t.Fatalf("live view: %v: %s", err, out)
	}
	var res struct {
		OK          bool
		ThumbnailMS int `json:"thumbnail_ms"`
		Typed       string
		Human       struct{ Note, Title string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("live view output %q: %v", out, err)
	}
	t.Logf("%s", out)
	for _, png := range []string{"live-view.png", "live-view-takeover.png", "live-view-800.png"} {
		if st, err := os.Stat(filepath.Join(shots, png)); err != nil || st.Size() < 10000 {
			t.Errorf("screenshot %s: %v", png, err)
		}
	}
}

// /ui and its websocket are the owner's only, as the endpoint: another
// local user gets 403 before anything is read; the page cannot be framed.
func TestLiveViewServesItsOwnerOnly(t *testing.T) {
	actortest.AsOtherUser(t)
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	why := fmt.Sprintf("serves uid 0 only; the connection came from uid %d", actortest.OtherUID)
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"/ui":    actortest.AsOtherUserGet(t, s.endpoint+"/ui"),
		"/ui/ws": actortest.AsOtherUserUpgrade(t, s.endpoint+"/ui/ws"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
			t.Errorf("another user's %s: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, why)
		}
	}
	resp, err := http.Get(s.endpoint + "/ui")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("the owner's /ui: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	if !s.logged("live_view=" + s.endpoint + "/ui") {
		t.Errorf("serve does not log the live view's URL:\n%s", s.stderr.String())
	}
}

// Beyond loopback (serve --listen) /ui needs the token, as every request:
// the page opened with ?token= hands it to its websocket; only its static
// script and style are served without it.
func TestLiveViewWithATokenNeedsIt(t *testing.T) {
	s := startServe(t, []string{"CDPVISOR_TOKEN=" + testToken}, "--listen", "0.0.0.0:0", "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	for path, want := range map[string]int{
		"/ui":                                  http.StatusUnauthorized,
		"/ui?token=" + testToken:               http.StatusOK,
		"/ui/app.js":                           http.StatusOK,
		"/ui/style.css":                        http.StatusOK,
		"/ui/playback.js":                      http.StatusOK,
		"/ui/request-human":                    http.StatusUnauthorized,
		"/ui/ws":                               http.StatusUnauthorized,
		"/ui/request-human?token=" + testToken: http.StatusMethodNotAllowed, // GET: through the gate, then refused
	} {
		resp, err := http.Get(s.endpoint + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", strings.Replace(path, testToken, "TOKEN", 1), resp.StatusCode, want)
		}
	}
	ws := strings.Replace(s.endpoint, "http://", "ws://", 1) + "/ui/ws?token=" + testToken
	conn, resp, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatalf("the live view's websocket with the token: %v %v", err, resp)
	}
	defer conn.Close()
	var hello struct{ Type string }
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := conn.ReadJSON(&hello); err != nil || hello.Type != "hello" {
		t.Fatalf("first message %+v %v, want hello", hello, err)
	}
}

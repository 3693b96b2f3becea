package actors

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// No screencast runs without a viewer: a world's page in a running
// Chromium is screencast only while a /ui websocket is open, and not once
// it closed; a websocket with a foreign Origin is refused.
func TestLiveViewCastsOnlyWhileSomeoneWatches(t *testing.T) {
	chromium := actortest.Chromium(t)
	c := runCoordinator(t, CoordinatorConfig{Launch: launch.Options{
		Browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: chromium}, Headless: true,
		ReadyTimeout: 20 * time.Second, StopGrace: 2 * time.Second,
	}})
	ctx := served.Context(t)
	w, err := c.WorldsOf(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := w.PathEndpoint("watched")
	if code, body, _ := actortest.HTTPDo(t, http.MethodPut, endpoint+"/json/new?about:blank", ""); code != http.StatusOK {
		t.Fatalf("/json/new in the world: %d %s", code, body)
	}
	lv := c.LiveViewActor()
	time.Sleep(1500 * time.Millisecond) // a screencast would have started by now
	if n := lv.Screencasts(); n != 0 {
		t.Fatalf("%d screencasts run with nobody watching", n)
	}
	ws := strings.Replace(c.LiveView(), "http://", "ws://", 1) + "/ws"
	if _, resp, err := websocket.DefaultDialer.Dial(ws, http.Header{"Origin": {"http://evil.example"}}); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a websocket with a foreign Origin: %v %v, want 403", err, resp)
	}
	viewer, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = viewer.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		var m struct{ Type string }
		if err := viewer.ReadJSON(&m); err != nil {
			t.Fatalf("no frame reached the viewer: %v", err)
		}
		if m.Type == "frame" {
			break
		}
	}
	if n := lv.Screencasts(); n < 1 {
		t.Fatalf("%d screencasts while a viewer watches", n)
	}
	viewer.Close()
	for end := time.Now().Add(5 * time.Second); lv.Screencasts() != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d screencasts still run 5 s after the last viewer left", lv.Screencasts())
		}
	}
}

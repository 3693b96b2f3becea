package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/bridge"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
)

// Issue 27: the bridge's port serves its owner only. Another user's client
// gets a 403 for /json and for a websocket, and opens no page in the
// bridge's browser; the owner's clients work.
func TestBridgePortModeRefusesAnotherUser(t *testing.T) {
	actortest.AsOtherUser(t)
	var stderr actortest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() {
		ran <- bridge.Run(ctx, bridge.Config{
			Args:    bridge.Args{Port: 0, Headless: true, BridgePort: -1},
			Browser: served.FakeLaunch(t).Browser, Launcher: chromium.Launcher{},
			Stderr: &stderr, Log: served.Logger(t),
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("bridge: %v", err)
		}
	})
	line := regexp.MustCompile(`DevTools listening on ws://(127\.0\.0\.1:\d+)/devtools/browser/\S+`)
	var host string
	for end := time.Now().Add(10 * time.Second); host == ""; time.Sleep(20 * time.Millisecond) {
		if m := line.FindStringSubmatch(stderr.String()); m != nil {
			host = m[1]
		} else if time.Now().After(end) {
			t.Fatalf("no DevTools line: %q", stderr.String())
		}
	}
	ep := "http://" + host
	pages := func() int {
		code, body, _ := actortest.HTTPDo(t, http.MethodGet, ep+"/json/list", "")
		var list []any
		if code != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil {
			t.Fatalf("the owner's /json/list: %d %s", code, body)
		}
		return len(list)
	}
	before := pages()
	why := fmt.Sprintf("serves uid %d only; the connection came from uid %d", os.Geteuid(), actortest.OtherUID)
	for name, a := range map[string]actortest.OtherUsersAnswer{
		"GET /json/version":           actortest.AsOtherUserGet(t, ep+"/json/version"),
		"PUT /json/new":               actortest.AsOtherUserPut(t, ep+"/json/new?https://example.com"),
		"websocket /devtools/browser": actortest.AsOtherUserUpgrade(t, "http://"+host+"/devtools/browser/x"),
	} {
		if a.Status != http.StatusForbidden || !strings.Contains(a.Body, why) {
			t.Errorf("another user's %s: %d %q %s, want 403 %q", name, a.Status, a.Body, a.Stderr, why)
		}
	}
	if after := pages(); after != before {
		t.Fatalf("another user's /json/new opened a page: %d pages, %d before", after, before)
	}
	c, _, err := websocket.DefaultDialer.Dial("ws://"+host+"/devtools/browser/x", nil)
	if err != nil {
		t.Fatalf("the owner's websocket: %v", err)
	}
	c.Close()
}

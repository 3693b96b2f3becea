package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// A client loads an extension of its own through the whole endpoint
// (Extensions.loadUnpacked): its service worker is a target the client
// sees, and the websocket it opens to the endpoint (Origin
// chrome-extension://ID) works; another extension's Origin is refused, and
// so is this one's once uninstalled (on a browser target's session); a
// world's client is refused both requests.
func TestExtensionLoadedThroughTheEndpoint(t *testing.T) {
	chromium := actortest.Chromium(t)
	s := startServe(t, nil, "--browser", chromium, "--state-dir", t.TempDir())
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	dir, err := filepath.Abs("../../testdata/extensions/echo")
	if err != nil {
		t.Fatal(err)
	}
	loaded := cl.Call(1, "Extensions.loadUnpacked", fmt.Sprintf(`{"path":%q}`, dir), "")
	var ext struct{ ID string }
	if err := json.Unmarshal(loaded.Result, &ext); err != nil || ext.ID == "" {
		t.Fatalf("Extensions.loadUnpacked answered %s", loaded.Raw)
	}
	origin := "chrome-extension://" + ext.ID

	worker := serviceWorkerOf(t, cl, ext.ID)
	var listed []struct{ ID, Type, URL string }
	getJSON(t, s.endpoint+"/json/list", &listed)
	if !containsTarget(listed, worker) {
		t.Errorf("/json/list does not list the service worker %s: %+v", worker, listed)
	}

	// The extension opens its websocket to the endpoint and asks it for
	// Browser.getVersion, once its worker's script has run (the worker may
	// be attached before).
	session := cl.Call(3, "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, worker), "")
	var attached struct{ SessionID string }
	_ = json.Unmarshal(session.Result, &attached)
	// A worker attached while it starts waits for its debugger.
	cl.Call(8, "Runtime.runIfWaitingForDebugger", "", attached.SessionID)
	expression, _ := json.Marshal(fmt.Sprintf(`(async () => {
		while (typeof globalThis.echo !== "function") await new Promise((r) => setTimeout(r, 50));
		return echo(%q);
	})()`, version.WebSocketDebuggerURL))
	echo := cl.Call(4, "Runtime.evaluate", fmt.Sprintf(`{"expression":%s,"awaitPromise":true,"returnByValue":true}`, expression), attached.SessionID)
	var product struct{ Result struct{ Value string } }
	_ = json.Unmarshal(echo.Result, &product)
	want := cl.Call(5, "Browser.getVersion", "", "")
	var wantProduct struct{ Product string }
	_ = json.Unmarshal(want.Result, &wantProduct)
	if product.Result.Value == "" || product.Result.Value != wantProduct.Product {
		t.Errorf("the extension's websocket to the endpoint: %s, want product %q", echo.Raw, wantProduct.Product)
	}

	if code := upgradeStatus(t, version.WebSocketDebuggerURL, "chrome-extension://"+strings.Repeat("a", 32)); code != http.StatusForbidden {
		t.Errorf("another extension's Origin: status %d, want 403", code)
	}
	if code := upgradeStatus(t, version.WebSocketDebuggerURL, origin); code != http.StatusSwitchingProtocols {
		t.Errorf("the loaded extension's Origin: status %d, want 101", code)
	}
	browserSession := cl.Call(6, "Target.attachToBrowserTarget", "", "")
	var onBrowser struct{ SessionID string }
	_ = json.Unmarshal(browserSession.Result, &onBrowser)
	cl.Call(7, "Extensions.uninstall", fmt.Sprintf(`{"id":%q}`, ext.ID), onBrowser.SessionID)
	if code := upgradeStatus(t, version.WebSocketDebuggerURL, origin); code != http.StatusForbidden {
		t.Errorf("the uninstalled extension's Origin: status %d, want 403", code)
	}

	// A world refuses both: an extension is the whole browser's.
	var worldVersion struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/context/agent/json/version", &worldVersion)
	wcl := actortest.DialCDP(t, worldVersion.WebSocketDebuggerURL)
	for i, req := range []struct{ method, params string }{
		{"Extensions.loadUnpacked", fmt.Sprintf(`{"path":%q}`, dir)},
		{"Extensions.uninstall", fmt.Sprintf(`{"id":%q}`, ext.ID)},
	} {
		m, _ := wcl.AnswerOf(int64(i+1), req.method, req.params)
		if code, text := m.ErrorCode(); code != -32000 || !strings.Contains(text, "refused in world") {
			t.Errorf("%s in a world answered %s, want the world's refusal", req.method, m.Raw)
		}
	}
}

// serviceWorkerOf waits for the service worker of extension id among the
// targets and returns its target id.
func serviceWorkerOf(t *testing.T, cl *actortest.CDPClient, id string) string {
	t.Helper()
	want := "chrome-extension://" + id + "/worker.js"
	var infos struct {
		TargetInfos []struct{ TargetID, Type, URL string }
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got := cl.Call(2, "Target.getTargets", "", "")
		_ = json.Unmarshal(got.Result, &infos)
		for _, ti := range infos.TargetInfos {
			if ti.Type == "service_worker" && ti.URL == want {
				return ti.TargetID
			}
		}
	}
	t.Fatalf("no service worker %s among the targets: %+v", want, infos.TargetInfos)
	return ""
}

func containsTarget(list []struct{ ID, Type, URL string }, id string) bool {
	for _, e := range list {
		if e.ID == id && e.Type == "service_worker" {
			return true
		}
	}
	return false
}

// upgradeStatus opens a websocket to url with Origin origin and returns
// the HTTP status of the answer.
func upgradeStatus(t *testing.T, url, origin string) int {
	t.Helper()
	c, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {origin}})
	if c != nil {
		c.Close()
	}
	if resp == nil {
		t.Fatalf("websocket with Origin %s: %v", origin, err)
	}
	return resp.StatusCode
}

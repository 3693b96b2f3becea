package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// newWorldPage opens a page in world name of the default instance through
// its /json/new (the world is made on its first use).
func (h *mcpHarness) newWorldPage(name string) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPut, h.c.Default().Proxy.Endpoint()+"/context/"+name+"/json/new?about:blank", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("/context/%s/json/new: %s %s", name, resp.Status, body)
	}
}

// worldsListed is browser_context list's worlds, by name.
func (h *mcpHarness) worldsListed(args map[string]any) map[string]map[string]any {
	h.t.Helper()
	_, data := h.call("browser_context", args, false)
	list, _ := data["worlds"].([]any)
	out := map[string]map[string]any{}
	for _, w := range list {
		w := w.(map[string]any)
		out[w["name"].(string)] = w
	}
	return out
}

// browser_context lists an instance's worlds with their endpoint, clients
// and pages, and closes one by name: its clients are disconnected, its
// pages closed, its name free; coordinator_status lists them too.
func TestMCPBrowserContextListAndClose(t *testing.T) {
	h := newMCPHarness(t)
	def := h.c.Default()
	text, data := h.call("browser_context", map[string]any{"action": "list"}, false)
	if list, _ := data["worlds"].([]any); data["instance"] != def.ID || list == nil || len(list) != 0 ||
		!strings.Contains(text, "no worlds open or kept") || !strings.Contains(text, "action open") || !strings.Contains(text, def.Proxy.Endpoint()+"/context/NAME") {
		t.Fatalf("list before any world: %s %v", text, data)
	}

	h.call("coordinator_launch_browser", nil, false)
	before := h.browserPages() // the browser's own first page
	h.newWorldPage("alice")
	h.newWorldPage("alice")
	h.newWorldPage("bob")
	ws := strings.Replace(def.Proxy.Endpoint(), "http", "ws", 1) + "/context/alice/devtools/browser"
	conn, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var listed map[string]map[string]any
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if listed = h.worldsListed(map[string]any{"action": "list", "instance": def.ID}); listed["alice"]["clients"] == 1.0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("alice's client not counted: %v", listed)
		}
	}
	alice, bob := listed["alice"], listed["bob"]
	port, _ := alice["port"].(float64)
	aliceEndpoint := fmt.Sprintf("http://127.0.0.1:%d", int(port))
	if len(listed) != 2 || port == 0 || alice["endpoint"] != aliceEndpoint || alice["path_endpoint"] != def.Proxy.Endpoint()+"/context/alice" ||
		alice["pages"] != 2.0 || bob["clients"] != 0.0 || bob["pages"] != 1.0 {
		t.Fatalf("list: %v", listed)
	}

	// coordinator_status shows the same, under its instance.
	text, _ = h.call("coordinator_status", nil, false)
	st := h.callResult("coordinator_status", nil)
	var cs statusAnswer
	decodeStructured(t, st, &cs)
	got := cs.Instances[0].Worlds
	if len(got) != 2 || !got[0].Open || !got[0].Kept {
		t.Fatalf("coordinator_status worlds: %+v, want alice and bob, open and kept", got)
	}
	alike := got[0]
	alike.Open, alike.Kept, alike.SavedBytes, alike.SavedAt = false, false, 0, nil // when saved is the profiles' business
	if alike != (worldapi.Status{Name: "alice", Endpoint: aliceEndpoint, PathEndpoint: def.Proxy.Endpoint() + "/context/alice",
		Port: int(port), WS: strings.Replace(aliceEndpoint, "http", "ws", 1) + "/devtools/browser", Clients: 1, Pages: 2}) ||
		got[1].Name != "bob" || got[1].Pages != 1 {
		t.Errorf("coordinator_status worlds: %+v", got)
	}
	if !strings.Contains(text, "world alice at "+aliceEndpoint+" ("+def.Proxy.Endpoint()+"/context/alice): 1 client(s), 2 page(s)") {
		t.Errorf("coordinator_status text: %s", text)
	}

	// Closing alice disconnects her client (1001), closes her pages, and
	// leaves bob.
	text, data = h.call("browser_context", map[string]any{"action": "close", "name": "alice"}, false)
	if data["closed"] != "alice" || data["instance"] != def.ID || data["clients"] != 1.0 || data["pages"] != 2.0 ||
		!strings.Contains(text, "closed world alice") {
		t.Fatalf("close: %s %v", text, data)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ce *websocket.CloseError
	if _, _, err := conn.ReadMessage(); !errors.As(err, &ce) || ce.Code != 1001 {
		t.Errorf("alice's client saw %v, want close 1001", err)
	}
	// A named world is kept: alice is listed closed, for her profile.
	if listed := h.worldsListed(map[string]any{"action": "list"}); len(listed) != 2 || listed["bob"]["open"] != true ||
		listed["alice"]["open"] != false || listed["alice"]["kept"] != true || listed["alice"]["endpoint"] != "" {
		t.Errorf("after closing alice: %v", listed)
	}
	if pages := h.browserPages(); pages != before+1 {
		t.Errorf("%d pages in the browser after closing alice, want %d and bob's", pages, before)
	}
}

// open makes a world (a fresh name when none is given) or finds it, and
// answers its endpoints: its own port first; nothing is launched.
func TestMCPBrowserContextOpen(t *testing.T) {
	h := newMCPHarness(t)
	def := h.c.Default()
	text, data := h.call("browser_context", map[string]any{"action": "open"}, false)
	w, _ := data["world"].(map[string]any)
	name, _ := w["name"].(string)
	port, _ := w["port"].(float64)
	if data["created"] != true || data["instance"] != def.ID || !strings.HasPrefix(name, "agent-") || port == 0 ||
		w["endpoint"] != fmt.Sprintf("http://127.0.0.1:%d", int(port)) || w["path_endpoint"] != def.Proxy.Endpoint()+"/context/"+name ||
		!strings.Contains(text, fmt.Sprintf("http://127.0.0.1:%d", int(port))) {
		t.Fatalf("open: %s %v", text, data)
	}
	_, again := h.call("browser_context", map[string]any{"action": "open", "name": name}, false)
	if w2, _ := again["world"].(map[string]any); again["created"] != false || w2["port"] != port {
		t.Errorf("open again: %v, want the same world found", again)
	}
	if st, _ := def.Browser.Status(context.Background()); st.Generation != 0 {
		t.Errorf("open launched a browser: %+v", st)
	}
	if listed := h.worldsListed(map[string]any{"action": "list"}); listed[name]["endpoint"] != w["endpoint"] {
		t.Errorf("list after open: %v", listed)
	}
}

// browserPages counts the pages of the whole browser (every world's).
func (h *mcpHarness) browserPages() int {
	h.t.Helper()
	resp, err := http.Get(h.c.Default().Proxy.Endpoint() + "/json/list")
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return strings.Count(string(body), `"type": "page"`) + strings.Count(string(body), `"type":"page"`)
}

// What browser_context refuses, and how it says so.
func TestMCPBrowserContextErrors(t *testing.T) {
	h := newMCPHarness(t)
	h.newWorldPage("alice")
	h.newWorldPage("bob")
	cases := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"action": "close", "name": "carol"}, []string{`browser_context close: unknown world "carol" in instance ` + h.c.Default().ID, "its open worlds: alice, bob"}},
		{map[string]any{"action": "close"}, []string{"browser_context close: needs name", "alice, bob"}},
		{map[string]any{"action": "close", "name": "no/such"}, []string{`invalid world name "no/such"`, "1 to 64 characters"}},
		{map[string]any{"action": "list", "name": "alice"}, []string{"name is for open, close, export, import, journal and trace, not list"}},
		{map[string]any{"action": "opne"}, []string{`unknown action "opne": want open, list, close, export, import, journal or trace`}},
		{map[string]any{"action": "open", "name": "no/such"}, []string{`invalid world name "no/such"`, "1 to 64 characters"}},
		{map[string]any{}, []string{"action is required"}},
		{map[string]any{"action": "list", "instance": "inst_nope"}, []string{`unknown instance "inst_nope"`, "leave instance out"}},
		{map[string]any{"action": "list", "colour": "red"}, []string{`unknown argument "colour"`, "action, name, instance, forget, storage_state, from_user_browser, from_world, origins, allow_hosts, deny_hosts, proxy, allow_files, replace, since, record and format"}},
		{map[string]any{"action": "close", "name": 7}, []string{`argument "name" must be a string: a world's name`}},
	}
	for _, c := range cases {
		text, _ := h.call("browser_context", c.args, true)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: %q does not say %q", c.args, text, w)
			}
		}
	}
	if listed := h.worldsListed(map[string]any{"action": "list"}); len(listed) != 2 {
		t.Errorf("the refusals changed the worlds: %v", listed)
	}
}

// download_list and download_wait take a world's name as context.
func TestMCPDownloadToolsTakeAContext(t *testing.T) {
	h := newMCPHarnessWithDownloads(t, t.TempDir())
	def := h.c.Default()
	text, data := h.call("download_list", map[string]any{"context": "alice"}, false)
	if text != "[]" || data["context"] != "alice" || data["download_dir"] != def.Downloads.Dir()+"/alice" {
		t.Fatalf("download_list of alice: %s %v", text, data)
	}
	if _, data := h.call("download_list", nil, false); data["context"] != nil || data["download_dir"] != def.Downloads.Dir() {
		t.Errorf("download_list: %v", data)
	}
	text, _ = h.call("download_wait", map[string]any{"context": "alice", "timeout_s": 0.2}, true)
	if !strings.Contains(text, "no download began in world alice of instance "+def.ID) {
		t.Errorf("download_wait in alice: %s", text)
	}
	text, _ = h.call("download_wait", map[string]any{"context": "alice", "id": "nope"}, true)
	if !strings.Contains(text, fmt.Sprintf(`no download "nope" in world alice of instance %s`, def.ID)) {
		t.Errorf("download_wait of an unknown id in alice: %s", text)
	}
	for _, tool := range []string{"download_list", "download_wait"} {
		text, _ := h.call(tool, map[string]any{"context": "a b"}, true)
		if !strings.Contains(text, `argument "context": invalid world name "a b"`) {
			t.Errorf("%s with a bad context: %s", tool, text)
		}
	}
}

// decodeStructured decodes a result's structured content into v.
func decodeStructured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
}

package mcptools

import (
	"encoding/json"
	"strings"
	"testing"
)

// signedIn is a storage state with one sign-in: a cookie and a token in
// its origin's localStorage.
const signedIn = `{"cookies":[{"name":"sid","value":"s3cret","domain":"shop.test","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"}],` +
	`"origins":[{"origin":"https://shop.test","localStorage":[{"name":"token","value":"t0k"}]}]}`

// signedInObject is signedIn as an argument object.
func signedInObject(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(signedIn), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// What browser_context refuses of a seed, an import, an export and a
// forget, saying what was expected; nothing is made or changed.
func TestMCPBrowserContextStorageRefusals(t *testing.T) {
	h := newMCPHarness(t)
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"action": "import", "name": "shop", "storage_state": `{"cookies": []}`}, []string{"browser_context import: storage_state", "not a Playwright storage state", `no "origins"`, "expected Playwright's storage state", "nothing was made or changed"}},
		{map[string]any{"action": "import", "name": "shop", "storage_state": map[string]any{"cookies": []any{}, "origins": []any{}, "version": 2}}, []string{`unknown field "version"`}},
		{map[string]any{"action": "import", "name": "shop", "storage_state": "not json"}, []string{"not a JSON object"}},
		{map[string]any{"action": "import", "name": "shop", "storage_state": []any{}}, []string{"an object or a string of its JSON is expected, not an array"}},
		{map[string]any{"action": "import", "name": "shop", "storage_state": 7}, []string{"not a number"}},
		{map[string]any{"action": "import", "name": "shop"}, []string{"needs storage_state"}},
		{map[string]any{"action": "import", "storage_state": signedIn}, []string{"needs name"}},
		{map[string]any{"action": "import", "name": "shop", "storage_state": signedIn, "from_world": "alice"}, []string{"import takes name and storage_state"}},
		{map[string]any{"action": "open", "name": "mail", "from_user_browser": []any{"mail.test"}}, []string{"from_user_browser", `"mail.test" is not an http or https origin`}},
		{map[string]any{"action": "open", "name": "mail", "from_user_browser": "https://mail.test"}, []string{`argument "from_user_browser" must be an array of origins`}},
		{map[string]any{"action": "open", "name": "mail", "from_user_browser": []any{"https://mail.test"}}, []string{"from_user_browser", "user's own browser", "CDPVISOR_ATTACH=1", "storage_state or from_world"}},
		{map[string]any{"action": "open", "name": "mail", "origins": []any{"https://mail.test"}}, []string{"no from_world is given"}},
		{map[string]any{"action": "open", "name": "mail", "from_world": "mail"}, []string{"is the world itself"}},
		{map[string]any{"action": "open", "name": "mail", "from_world": "nobody"}, []string{`unknown world "nobody"`, "nothing was made"}},
		{map[string]any{"action": "list", "storage_state": signedIn}, []string{"they are for open (and storage_state for import), not list"}},
		{map[string]any{"action": "open", "name": "mail", "forget": true}, []string{"forget is for close, not open"}},
		{map[string]any{"action": "export"}, []string{"needs name"}},
		{map[string]any{"action": "export", "name": "nobody"}, []string{`unknown world "nobody"`, "browser_context list shows the worlds"}},
		{map[string]any{"action": "close", "name": "nobody", "forget": true}, []string{`unknown world "nobody"`}},
	} {
		text, _ := h.call("browser_context", c.args, true)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: %q does not say %q", c.args, text, w)
			}
		}
	}
	if listed := h.worldsListed(map[string]any{"action": "list"}); len(listed) != 0 {
		t.Errorf("the refusals made worlds: %v", listed)
	}
}

// open seeds a world with a storage state (an object); export answers it
// in Playwright's format; import (a string of JSON) replaces what it
// names; list shows it kept; close forget: true deletes it.
func TestMCPBrowserContextStorage(t *testing.T) {
	h := newMCPHarness(t)
	text, data := h.call("browser_context", map[string]any{"action": "open", "name": "shop", "storage_state": signedInObject(t)}, false)
	seeded, _ := data["seeded"].(map[string]any)
	if data["created"] != true || seeded["cookies"] != 1.0 || seeded["origins"] != 1.0 || !strings.Contains(text, "seeded with 1 cookie(s)") {
		t.Fatalf("open with storage_state: %s %v", text, data)
	}
	exported := func() map[string]any {
		t.Helper()
		text, data := h.call("browser_context", map[string]any{"action": "export", "name": "shop"}, false)
		st, _ := data["storage_state"].(map[string]any)
		if data["name"] != "shop" || st == nil || !strings.Contains(text, "Playwright's format") {
			t.Fatalf("export: %s %v", text, data)
		}
		return st
	}
	st := exported()
	cookies, _ := st["cookies"].([]any)
	if len(cookies) != 1 || cookies[0].(map[string]any)["value"] != "s3cret" {
		t.Fatalf("exported %v", st)
	}

	update := `{"cookies":[{"name":"sid","value":"n3w","domain":"shop.test","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"}],"origins":[]}`
	if _, data := h.call("browser_context", map[string]any{"action": "import", "name": "shop", "storage_state": update}, false); data["created"] != false {
		t.Errorf("import into an open world: %v", data)
	}
	st = exported()
	cookies, _ = st["cookies"].([]any)
	origins, _ := st["origins"].([]any)
	if len(cookies) != 1 || cookies[0].(map[string]any)["value"] != "n3w" || len(origins) != 1 {
		t.Errorf("after the import: %v, want sid replaced and the origin kept", st)
	}

	if listed := h.worldsListed(map[string]any{"action": "list"}); listed["shop"]["kept"] != true || listed["shop"]["open"] != true {
		t.Errorf("list: %v", listed)
	}
	if text, data := h.call("browser_context", map[string]any{"action": "close", "name": "shop", "forget": true}, false); data["forgot"] != true || !strings.Contains(text, "forgot world shop") {
		t.Errorf("close forget: %s %v", text, data)
	}
	if listed := h.worldsListed(map[string]any{"action": "list"}); len(listed) != 0 {
		t.Errorf("after forget: %v", listed)
	}
}

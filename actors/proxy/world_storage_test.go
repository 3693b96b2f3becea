package proxy_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/storagestate"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// signedIn is a storage state with one sign-in: a cookie and a token in
// its origin's localStorage.
const signedIn = `{"cookies":[{"name":"sid","value":"s3cret","domain":"shop.test","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"}],` +
	`"origins":[{"origin":"https://shop.test","localStorage":[{"name":"token","value":"t0k"}]}]}`

// send sends method url with body and answers the status and body.
func send(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(got)
}

// worldNames are the worlds GET worldapi.Path lists.
func worldNames(t *testing.T, endpoint string) []string {
	t.Helper()
	code, body := send(t, http.MethodGet, endpoint+worldapi.Path, "")
	var list []worldapi.Status
	if err := json.Unmarshal([]byte(body), &list); code != http.StatusOK || err != nil {
		t.Fatalf("GET %s: %d %v %s", worldapi.Path, code, err, body)
	}
	names := []string{}
	for _, w := range list {
		names = append(names, w.Name)
	}
	return names
}

// A seed that is not one is refused with 400 saying what was expected,
// before anything is made: no world, no browser.
func TestWorldSeedRefusedWholeBeforeAnythingIsMade(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ep := inst.Proxy.Endpoint()
	for _, c := range []struct {
		path, body string
		code       int
		want       []string
	}{
		{worldapi.Path + "/shop", `{"storage_state": {"cookies": []}}`, 400, []string{"storage_state", "not a Playwright storage state", `no "origins"`, "expected Playwright's storage state"}},
		{worldapi.Path + "/shop", `{"storage_state": {"cookies": [], "origins": [], "version": 2}}`, 400, []string{`unknown field "version"`}},
		{worldapi.Path + "/shop", `{"cookies": [], "origins": []}`, 400, []string{"not a seed", "expected {\"storage_state\"", "/context/NAME/storage-state"}},
		{worldapi.Path + "/shop", `{"storage_state": `, 400, []string{"not a seed"}},
		{worldapi.Path + "/shop", `{} {}`, 400, []string{"more than one JSON value"}},
		{worldapi.Path + "/shop", `{"from_user_browser": ["shop.test"]}`, 400, []string{"from_user_browser", `"shop.test" is not an http or https origin`}},
		{worldapi.Path + "/shop", `{"from_user_browser": "https://shop.test"}`, 400, []string{"not a seed", "from_user_browser"}},
		{worldapi.Path + "/shop", `{"origins": ["https://shop.test"]}`, 400, []string{"origins say which of from_world's origins", "no from_world"}},
		{worldapi.Path + "/shop", `{"from_world": "shop"}`, 400, []string{`from_world "shop" is the world itself`}},
		{worldapi.Path + "/shop", `{"from_world": "no/such"}`, 400, []string{"from_world", "invalid world name"}},
		{worldapi.Path + "/shop", `{"from_world": "alice", "origins": ["ftp://shop.test"]}`, 400, []string{"origins", "not an http or https origin"}},
		{"/context/shop" + worldapi.StorageStatePath, `{"cookies": [{"name": "a"}], "origins": []}`, 400, []string{"cookie 0", `no "`}},
		{"/context/shop" + worldapi.StorageStatePath, `not json`, 400, []string{"not a JSON object", "expected Playwright's storage state"}},
		{"/context/shop" + worldapi.StorageStatePath, strings.Repeat(" ", storagestate.MaxSize+1), 413, []string{"at most"}},
	} {
		code, body := send(t, http.MethodPut, ep+c.path, c.body)
		if code != c.code {
			t.Errorf("PUT %s %.80q: %d %s, want %d", c.path, c.body, code, body, c.code)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("PUT %s %.80q: %q does not say %q", c.path, c.body, body, w)
			}
		}
	}
	if names := worldNames(t, ep); len(names) != 0 {
		t.Errorf("refused seeds made worlds: %v", names)
	}
	for _, c := range []struct{ method, path, want string }{
		{http.MethodDelete, worldapi.Path + "/shop?forget=maybe", `forget="maybe": want forget=1`},
		{http.MethodPost, "/context/shop" + worldapi.StorageStatePath, "GET exports the world's storage state, PUT imports one"},
	} {
		if code, body := send(t, c.method, ep+c.path, ""); code/100 != 4 || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: %d %q, want a refusal saying %q", c.method, c.path, code, body, c.want)
		}
	}
	if st := served.WaitState(t, inst.Browser, "idle"); st.Generation != 0 {
		t.Errorf("the refusals launched a browser: %+v", st)
	}
}

// from_user_browser on an instance that is not the user's own browser
// (--attach) is refused, and nothing is made.
func TestWorldSeedFromUserBrowserNeedsAttach(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	code, body := send(t, http.MethodPut, inst.Proxy.Endpoint()+worldapi.Path+"/mail", `{"from_user_browser": ["https://mail.test"]}`)
	if code != http.StatusBadRequest || !strings.Contains(body, "--attach") {
		t.Errorf("from_user_browser without --attach: %d %s", code, body)
	}
	if names := worldNames(t, inst.Proxy.Endpoint()); len(names) != 0 {
		t.Errorf("a refused seed made worlds: %v", names)
	}
}

// A world seeded when made answers what the seed gave; its storage state
// is exported as Playwright's JSON; an import replaces what it names and
// keeps the rest; forget closes it and deletes what it keeps.
func TestWorldStorageOverHTTP(t *testing.T) {
	inst := served.StartInstance(t, served.FakeLaunch(t), proxy.Spec{})
	ep := inst.Proxy.Endpoint()
	code, body := send(t, http.MethodPut, ep+worldapi.Path+"/shop", `{"storage_state": `+signedIn+`}`)
	var ws worldapi.Status
	if err := json.Unmarshal([]byte(body), &ws); code != http.StatusOK || err != nil || !ws.Created || !ws.Open || !ws.Kept ||
		ws.Seeded == nil || ws.Seeded.Cookies != 1 || ws.Seeded.Origins != 1 || len(ws.Seeded.Notes) != 0 || ws.Port == 0 {
		t.Fatalf("PUT shop with a storage state: %d %v %s", code, err, body)
	}
	export := func() storagestate.State {
		t.Helper()
		resp, err := http.Get(ep + "/context/shop" + worldapi.StorageStatePath)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		st, err := storagestate.Parse(got)
		if resp.StatusCode != http.StatusOK || err != nil || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("export: %s %v %v %s", resp.Status, resp.Header, err, got)
		}
		return st
	}
	st := export()
	if len(st.Cookies) != 1 || st.Cookies[0].Value != "s3cret" || len(st.Origins) != 1 || st.Origins[0].LocalStorage[0].Value != "t0k" {
		t.Fatalf("exported %+v", st)
	}

	// An import into it: the cookie of the same name, domain and path is
	// replaced, the rest stays.
	update := `{"cookies":[{"name":"sid","value":"n3w","domain":"shop.test","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"},` +
		`{"name":"cart","value":"2","domain":"shop.test","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],"origins":[]}`
	code, body = send(t, http.MethodPut, ep+"/context/shop"+worldapi.StorageStatePath, update)
	ws = worldapi.Status{}
	if err := json.Unmarshal([]byte(body), &ws); code != http.StatusOK || err != nil || ws.Created || ws.Seeded == nil || ws.Seeded.Cookies != 2 {
		t.Fatalf("import: %d %v %s", code, err, body)
	}
	st = export()
	if len(st.Cookies) != 2 || len(st.Origins) != 1 {
		t.Fatalf("after the import: %+v", st)
	}
	for _, c := range st.Cookies {
		if c.Name == "sid" && c.Value != "n3w" {
			t.Errorf("sid is %q after the import, want n3w", c.Value)
		}
	}

	// A refused import changes nothing.
	if code, _ := send(t, http.MethodPut, ep+"/context/shop"+worldapi.StorageStatePath, `{"cookies":[],"origins":[],"extra":1}`); code != http.StatusBadRequest {
		t.Errorf("a malformed import: %d, want 400", code)
	}
	if again := export(); !bytes.Equal(mustJSON(t, again), mustJSON(t, st)) {
		t.Errorf("a refused import changed the world: %+v, was %+v", again, st)
	}

	// Forget: closed and deleted; a second forget, and an export, know it
	// no more.
	if code, body := send(t, http.MethodDelete, ep+worldapi.Path+"/shop?forget=1", ""); code != http.StatusOK || !strings.Contains(body, `"name": "shop"`) {
		t.Fatalf("forget: %d %s", code, body)
	}
	if names := worldNames(t, ep); len(names) != 0 {
		t.Errorf("worlds after forget: %v", names)
	}
	if code, body := send(t, http.MethodDelete, ep+worldapi.Path+"/shop?forget=1", ""); code != http.StatusNotFound || !strings.Contains(body, "unknown world") {
		t.Errorf("forget of a forgotten world: %d %s", code, body)
	}
	if code, body := send(t, http.MethodGet, ep+"/context/shop"+worldapi.StorageStatePath, ""); code != http.StatusNotFound || !strings.Contains(body, "unknown world") {
		t.Errorf("export of a forgotten world: %d %s", code, body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SeedOf turns a request into the WorldsActor's seed: the state parsed,
// the origins in a browser's form; an empty one is no seed.
func TestSeedOf(t *testing.T) {
	s, err := proxy.SeedOf("shop", worldapi.Seed{StorageState: json.RawMessage(signedIn), FromWorld: "alice", Origins: []string{"HTTPS://Shop.test:443"}})
	if err != nil || s.State == nil || len(s.State.Cookies) != 1 || s.FromWorld != "alice" || len(s.Origins) != 1 || s.Origins[0] != "https://shop.test" {
		t.Fatalf("SeedOf: %+v %v", s, err)
	}
	if s, err := proxy.SeedOf("shop", worldapi.Seed{StorageState: json.RawMessage(" null ")}); err != nil || !s.Empty() {
		t.Errorf("a null storage_state: %+v %v, want no seed", s, err)
	}
}

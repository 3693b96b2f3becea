package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Issue 35, "Logins that last": worlds keep their sign-ins, exchange them
// as Playwright's storage state, and fork them from the user's browser.
// Every client here is real (playwright-core, logins.mjs), every browser
// Debian's Chromium, every coordinator the cdpvisor binary.

// loginServeArgs are a coordinator's flags for the login site: its
// certificate is httptest's.
func loginServeArgs(t *testing.T, dir string) []string {
	return []string{"--browser", actortest.Chromium(t), "--state-dir", dir,
		"--browser-arg=--ignore-certificate-errors", "--log-level", "debug"}
}

// profileOf is where a kept world's storage is, in a state dir.
func profileOf(dir, name string) string {
	return filepath.Join(dir, "profiles", name+".storage-state.json")
}

// killCoordinator kill -9s s and waits until what it launched is gone:
// its browser (its watchdog ends it) and its state file.
func killCoordinator(t *testing.T, s *served, dir string) {
	t.Helper()
	browsers := s.browsers()
	if len(browsers) == 0 {
		t.Fatal("the coordinator runs no browser")
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.done
	s.done <- nil
	waitFor(t, "the killed coordinator's browser to be ended by its watchdog", func() bool {
		for _, pid := range browsers {
			if actortest.Alive(pid) {
				return false
			}
		}
		left, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
		return len(left) == 0
	})
}

// noSecretsLogged fails when a cookie value or a token of site is in a
// coordinator's log.
func noSecretsLogged(t *testing.T, site *loginSite, coordinators ...*served) {
	t.Helper()
	for i, s := range coordinators {
		log := s.stderr.String()
		if len(log) == 0 {
			t.Errorf("coordinator %d logged nothing: the check would say nothing", i)
		}
		for _, secret := range site.secrets() {
			if strings.Contains(log, secret) {
				t.Errorf("coordinator %d's log holds a cookie value or token of the site (%.8s…)", i, secret)
			}
		}
	}
}

// A Playwright agent in world shop signs in (its tabs left open); the sign-in (the server's
// check of its HttpOnly Secure cookie, and the page's read of its
// localStorage token) is there for a new agent in shop after kill -9 of
// the coordinator and a new one on the same state dir, and again after
// SIGTERM; another world never sees it; world close --forget deletes the
// file. The profile is private (0700 dir, 0600 file), and no coordinator
// logs a cookie value or token, at debug level.
func TestWorldKeepsItsSignInAcrossCoordinators(t *testing.T) {
	actortest.ClientsDir(t)
	site := newLoginSite(t, "127.0.0.1")
	dir := t.TempDir()
	profile := profileOf(dir, "shop")

	first := startServe(t, nil, loginServeArgs(t, dir)...)
	agent, seen := startLogins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "keep", "signin=alice", "whoami", "wait")
	expectSeen(t, "signing in in shop", seen, site.signedIn("alice"), site.signedIn("alice"))
	// Kept as it changes: with the agent still connected (no client has
	// left, no world closed) the file holds the cookie and the token
	// within the 1.5 s reading and 0.2 s writing (and slack for a loaded
	// machine).
	holds := func(secrets ...string) func() bool {
		return func() bool {
			data, err := os.ReadFile(profile)
			for _, s := range secrets {
				if err != nil || !strings.Contains(string(data), s) {
					return false
				}
			}
			return true
		}
	}
	if !eventually(10*time.Second, holds(site.cookie("alice"), site.token("alice"))) {
		data, _ := os.ReadFile(profile)
		t.Fatalf("10 s after alice signed in, with her agent connected, shop's profile holds %s, want her cookie and token", site.describe(data))
	}
	private(t, filepath.Dir(profile), profile)
	expectSeen(t, "another world, beside shop", logins(t, "cdp="+worldOpen(t, dir, "other"), "site="+site.URL, "whoami"), anonymous)

	// kill -9: a new coordinator on the same state dir, a new agent.
	killCoordinator(t, first, dir)
	agent.Go()
	_ = agent.Wait() // its coordinator is gone: how it ends says nothing
	second := startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "a new agent in shop after kill -9 and a new coordinator",
		logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami"), site.signedIn("alice"))
	expectSeen(t, "another world after the kill", logins(t, "cdp="+worldOpen(t, dir, "other"), "site="+site.URL, "whoami"), anonymous)
	expectSeen(t, "the whole browser's own context after the kill", logins(t, "cdp="+second.endpoint, "site="+site.URL, "whoami"), anonymous)

	// SIGTERM at once after a new sign-in, the agent still connected: the
	// last save is the coordinator's at its stop.
	agent, seen = startLogins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "keep", "logout", "signin=bob", "wait")
	expectSeen(t, "logging out and in again in shop", seen, shown{Server: "signed-out", Token: "none"}, site.signedIn("bob"))
	if err := second.stop(t); err != nil {
		t.Errorf("the coordinator's exit after SIGTERM: %v", err)
	}
	agent.Go()
	_ = agent.Wait()
	if !holds(site.cookie("bob"), site.token("bob"))() {
		data, _ := os.ReadFile(profile)
		t.Errorf("after SIGTERM shop's profile does not hold bob's cookie and token: it holds %s", site.describe(data))
	}
	third := startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "a new agent in shop after SIGTERM and a new coordinator",
		logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami"), site.signedIn("bob"))
	expectSeen(t, "another world after SIGTERM", logins(t, "cdp="+worldOpen(t, dir, "other"), "site="+site.URL, "whoami"), anonymous)
	private(t, filepath.Dir(profile), profile)
	// list says shop is kept, its size and when it was last saved.
	out, stderr, code := runCLI(t, nil, "world", "list", "--json", "--state-dir", dir)
	var list []worldapi.Status
	info, _ := os.Stat(profile)
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
		t.Fatalf("world list --json: exit %d %v %q %q", code, err, out, stderr)
	}
	i := slices.IndexFunc(list, func(w worldapi.Status) bool { return w.Name == "shop" })
	if i < 0 || !list[i].Kept || list[i].SavedAt == nil || info == nil || list[i].SavedBytes != info.Size() {
		t.Errorf("world list --json: %s, want shop kept, saved, of its file's size (%v)", out, info)
	}

	// Forget deletes the file (and closes the world).
	out, stderr, code = runCLI(t, nil, "world", "close", "shop", "--forget", "--state-dir", dir)
	if code != 0 {
		t.Fatalf("world close shop --forget: exit %d %q %q", code, out, stderr)
	}
	if _, err := os.Lstat(profile); !os.IsNotExist(err) {
		t.Errorf("after world close shop --forget its profile is still there: %v", err)
	}
	expectSeen(t, "shop made again after forget", logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami"), anonymous)
	_ = third.stop(t)
	noSecretsLogged(t, site, first, second, third)
}

// eventually says whether ok held within d.
func eventually(d time.Duration, ok func() bool) bool {
	for end := time.Now().Add(d); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// What a page changes is kept even when the agent closes the page at once
// (goto, read, close: as scripts do): a sign-in, and a sign-out, are there
// for the world's next coordinator. The coordinator is stopped (SIGTERM)
// well after the change (3 s: two readings of the world and a write), so
// this is not about the last moments before a stop.
func TestWorldKeepsWhatAClosedPageChanged(t *testing.T) {
	actortest.ClientsDir(t)
	site := newLoginSite(t, "127.0.0.1")
	dir := t.TempDir()
	s := startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "signing in in shop, the page closed at once", logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "signin=alice"),
		site.signedIn("alice"))
	time.Sleep(3 * time.Second)
	_ = s.stop(t)
	data, _ := os.ReadFile(profileOf(dir, "shop"))
	s = startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "shop in the next coordinator, after signing in on a page closed at once (its profile held "+site.describe(data)+")",
		logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami", "logout"),
		site.signedIn("alice"), shown{Server: "signed-out", Token: "none"})
	time.Sleep(3 * time.Second)
	_ = s.stop(t)
	data, _ = os.ReadFile(profileOf(dir, "shop"))
	startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "shop in the next coordinator, after signing out on a page closed at once (its profile held "+site.describe(data)+")",
		logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "whoami"), anonymous)
}

// private fails unless dir is 0700 and each file 0600, all the test's
// user's.
func private(t *testing.T, dir string, files ...string) {
	t.Helper()
	check := func(p string, want os.FileMode) {
		info, err := os.Lstat(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return
		}
		st := info.Sys().(*syscall.Stat_t)
		if info.Mode().Perm() != want || int(st.Uid) != os.Geteuid() {
			t.Errorf("%s: mode %v, owner %d, want %v and %d", p, info.Mode().Perm(), st.Uid, want, os.Geteuid())
		}
	}
	check(dir, 0o700)
	for _, f := range files {
		check(f, 0o600)
	}
}

// storageState is a Playwright storage state as the tests read one.
type storageState struct {
	Cookies []struct {
		Name, Value, Domain, Path string
		Expires                   float64
		HTTPOnly                  bool `json:"httpOnly"`
		Secure                    bool
	}
	Origins []struct {
		Origin       string
		LocalStorage []struct{ Name, Value string }
	}
}

// holdsSignIn fails unless st holds user's session cookie (HttpOnly,
// Secure, expiring) and token for site.
func (st storageState) holdsSignIn(t *testing.T, what string, site *loginSite, user string) {
	t.Helper()
	cookie, token := false, false
	for _, c := range st.Cookies {
		if c.Name == sessionCookie && c.Value == site.cookie(user) {
			cookie = c.HTTPOnly && c.Secure && c.Expires > float64(time.Now().Unix())
		}
	}
	for _, o := range st.Origins {
		for _, i := range o.LocalStorage {
			token = token || (o.Origin == site.URL && i.Name == "token" && i.Value == site.token(user))
		}
	}
	if !cookie || !token {
		t.Errorf("%s: the state does not hold %s's HttpOnly Secure expiring cookie (%v) and token (%v) for %s: %+v", what, user, cookie, token, site.URL, st)
	}
}

// Exchange: a world's storage state, exported by cdpvisor (GET
// /context/NAME/storage-state and cdpvisor world export), signs in
// Playwright's own newContext({storageState}) on a Chromium it launched
// itself; the file Playwright's context.storageState() wrote signs in a
// world it is imported into (cdpvisor world open NAME --storage-state);
// a malformed one is refused, and the world keeps what it had.
func TestStorageStateExchangeWithPlaywright(t *testing.T) {
	actortest.ClientsDir(t)
	chromium := actortest.Chromium(t)
	site := newLoginSite(t, "127.0.0.1")
	dir, files := t.TempDir(), t.TempDir()
	s := startServe(t, nil, loginServeArgs(t, dir)...)
	expectSeen(t, "signing in in shop", logins(t, "cdp="+worldOpen(t, dir, "shop"), "site="+site.URL, "keep", "signin=dave"), site.signedIn("dave"))

	// Exported, over HTTP and by the command.
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/context/shop/storage-state", "")
	var st storageState
	if code != http.StatusOK || json.Unmarshal([]byte(body), &st) != nil {
		t.Fatalf("GET /context/shop/storage-state: %d %q", code, body)
	}
	st.holdsSignIn(t, "GET /context/shop/storage-state", site, "dave")
	exported := filepath.Join(files, "exported.json")
	if err := os.WriteFile(exported, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, nil, "world", "export", "shop", "--state-dir", dir)
	var cli storageState
	if code != 0 || json.Unmarshal([]byte(out), &cli) != nil {
		t.Fatalf("world export shop: exit %d %q %q", code, out, stderr)
	}
	cli.holdsSignIn(t, "world export shop", site, "dave")
	expectSeen(t, "Playwright's own newContext({storageState}) of cdpvisor's export",
		logins(t, "launch="+chromium+","+exported, "site="+site.URL, "whoami"), site.signedIn("dave"))

	// Playwright's own file, imported into a world.
	written := filepath.Join(files, "playwright.json")
	expectSeen(t, "Playwright's own context signing in", logins(t, "launch="+chromium, "site="+site.URL, "signin=erin", "save="+written),
		site.signedIn("erin"))
	out, stderr, code = runCLI(t, nil, "world", "open", "imported", "--storage-state", written, "--state-dir", dir)
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("world open imported --storage-state: exit %d %q %q", code, out, stderr)
	}
	imported := strings.TrimSpace(out)
	expectSeen(t, "a world seeded with Playwright's own state", logins(t, "cdp="+imported, "site="+site.URL, "whoami"), site.signedIn("erin"))
	// wrap --isolate=NAME --storage-state seeds the child's world alike.
	out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate=wrapped", "--storage-state", written, "--", "sh", "-c", "echo $CDP_ENDPOINT")
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("wrap --isolate=wrapped --storage-state: exit %d %q %q", code, out, stderr)
	}
	expectSeen(t, "wrap --isolate=wrapped --storage-state's world", logins(t, "cdp="+strings.TrimSpace(out), "site="+site.URL, "whoami"), site.signedIn("erin"))

	// Malformed: refused whole, saying what was expected; the world keeps
	// erin's sign-in. The first has a good cookie before a bad one, so a
	// half import would show.
	var pw map[string]any
	data, err := os.ReadFile(written)
	if err != nil || json.Unmarshal(data, &pw) != nil {
		t.Fatalf("Playwright's file: %v %q", err, data)
	}
	good := pw["cookies"].([]any)[0].(map[string]any)
	evil := map[string]any{}
	for k, v := range good {
		evil[k] = v
	}
	evil["value"] = "evil-half-import"
	for i, bad := range []any{
		map[string]any{"cookies": []any{evil, map[string]any{"name": "x", "value": 1}}, "origins": []any{}},
		map[string]any{"cookies": []any{evil}, "origins": pw["origins"], "version": 2},
		map[string]any{"cookies": map[string]any{"session": "evil"}, "origins": []any{}},
		"cookies: []",
	} {
		var raw []byte
		if s, ok := bad.(string); ok {
			raw = []byte(s)
		} else {
			raw, _ = json.Marshal(bad)
		}
		file := filepath.Join(files, "bad.json")
		if err := os.WriteFile(file, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		out, stderr, code = runCLI(t, nil, "world", "open", "imported", "--storage-state", file, "--state-dir", dir)
		if code == 0 || !strings.Contains(stderr, "storage state") {
			t.Errorf("malformed state %d %s: exit %d %q %q, want refused saying what a storage state is", i, raw, code, out, stderr)
		}
	}
	// The HTTP form refuses it too.
	req, _ := http.NewRequest(http.MethodPut, s.endpoint+"/context/imported/storage-state", strings.NewReader(`{"cookies":[],"origins":[],"version":2}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Errorf("PUT /context/imported/storage-state of a malformed state: %s, want a refusal (4xx)", resp.Status)
	}
	expectSeen(t, "the world after the malformed states were refused", logins(t, "cdp="+imported, "site="+site.URL, "whoami"), site.signedIn("erin"))
	noSecretsLogged(t, site, s)
}

// A kept world made again is restored every time: its first page at each
// kept origin reads the token kept there. cdpbench's restore figure, the
// kept side alone (testdata/clients/bench_restore.mjs: cdpvisor world
// open, Puppeteer on the world's port at once, newPage, goto, read; world
// close), on a state of the figure's size (200 cookies, a token on each
// of 4 origins), made again 20 times (a race shows in a few of them).
func TestKeptWorldIsRestoredEachTimeItIsMade(t *testing.T) {
	actortest.ClientsDir(t)
	dir, files := t.TempDir(), t.TempDir()
	startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", dir)
	var origins []string
	tokens := map[string]string{}
	type item struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type origin struct {
		Origin       string `json:"origin"`
		LocalStorage []item `json:"localStorage"`
	}
	st := map[string]any{}
	var kept []origin
	for range 4 {
		o := localTokenPage(t)
		origins, tokens[o] = append(origins, o), secret("tok-")
		kept = append(kept, origin{o, []item{{"token", tokens[o]}}})
	}
	var cookies []map[string]any
	for i := range 200 {
		cookies = append(cookies, map[string]any{"name": fmt.Sprintf("c%03d", i), "value": strings.Repeat("v", 40), "domain": fmt.Sprintf(".site-%d.example", i%40),
			"path": "/", "expires": float64(time.Now().Add(time.Hour).Unix()), "httpOnly": false, "secure": false, "sameSite": "Lax"})
	}
	st["cookies"], st["origins"] = cookies, kept
	stateFile := filepath.Join(files, "state.json")
	writeJSONFile(t, stateFile, st)
	coordinators, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
	if len(coordinators) != 1 {
		t.Fatalf("state files %v", coordinators)
	}
	var order []string
	for range 20 {
		order = append(order, "kept")
	}
	conf := filepath.Join(files, "conf.json")
	writeJSONFile(t, conf, map[string]any{"bin": binary, "state": coordinators[0], "storageState": stateFile, "origins": origins, "tokens": tokens, "order": order})
	out, err := actortest.NodeScript(t, 4*time.Minute, "bench_restore.mjs", conf)
	var res struct {
		OK     bool
		Misses []map[string]any
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || !res.OK {
		t.Fatalf("bench_restore.mjs: %v: %q", err, out)
	}
	if len(res.Misses) > 0 {
		t.Errorf("%d of %d pages of the kept world made again did not read its token: %v", len(res.Misses), len(order), res.Misses)
	}
}

// localTokenPage serves, on loopback, a page whose #token is its own
// script's read of localStorage; it returns the origin.
func localTokenPage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/token" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		page(w, "", "")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// wdioResult is what wdio_world.mjs printed.
type wdioResult struct {
	OK, Connected, Bidi bool
	Title, URL, Error   string
	DriverPid           int
}

// wdioWorld runs wdio_world.mjs (webdriverio through Debian's chromedriver,
// attached by debuggerAddress to endpoint's host and port) in mode (bidi or
// classic) and answers what it printed and the chromedriver's verbose log.
// The script runs with a $TMPDIR of its own, which must be left empty, and
// the chromedriver it started must have ended with it.
func wdioWorld(t *testing.T, endpoint, page, mode string) (wdioResult, string) {
	t.Helper()
	dir := actortest.ClientsDir(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "webdriverio")); err != nil {
		actortest.Missing(t, "webdriverio in the npm test clients (run .ci/setup)")
	}
	chromedriver := actortest.Chromedriver(t)
	work := t.TempDir()
	tmp, driverLog := filepath.Join(work, "tmp"), filepath.Join(work, "chromedriver.log")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	const timeout = 2 * time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "wdio_world.mjs"), strings.TrimPrefix(endpoint, "http://"), page, chromedriver, mode)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "CHROMEDRIVER_LOG="+driverLog,
		"CLIENT_TIMEOUT_MS="+strconv.Itoa(int((timeout-5*time.Second)/time.Millisecond)))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("wdio_world.mjs %s stderr:\n%s", mode, stderr.String())
	}
	var res wdioResult
	if err != nil || json.Unmarshal(stdout.Bytes(), &res) != nil || !res.OK || res.DriverPid == 0 {
		t.Fatalf("wdio_world.mjs %s on %s: %v: %q", mode, endpoint, err, stdout.String())
	}
	t.Cleanup(func() {
		if actortest.Alive(res.DriverPid) && isChromedriver(res.DriverPid) {
			actortest.KillPid(t, res.DriverPid)
		}
	})
	for end := time.Now().Add(5 * time.Second); actortest.Alive(res.DriverPid) && isChromedriver(res.DriverPid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("chromedriver %d outlived wdio_world.mjs", res.DriverPid)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("wdio_world.mjs %s left %v in its $TMPDIR", mode, names)
	}
	log, _ := os.ReadFile(driverLog)
	return res, string(log)
}

// targetsSeen are the targets the whole endpoint's client was told were
// made (Target.targetCreated, every type, hidden ones included).
type targetsSeen struct {
	cl *actortest.CDPClient
	id int64
}

type createdTarget struct {
	TargetID, Type, URL, BrowserContextID string
}

// watchTargets connects to the whole endpoint's browser websocket and
// discovers every target; it answers the watcher and the browser's default
// context.
func watchTargets(t *testing.T, endpoint string) (*targetsSeen, string) {
	t.Helper()
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, endpoint+"/json/version", &version)
	w := &targetsSeen{cl: actortest.DialCDP(t, version.WebSocketDebuggerURL)}
	var contexts struct{ DefaultBrowserContextID string }
	w.id++
	if err := json.Unmarshal(w.cl.Call(w.id, "Target.getBrowserContexts", "", "").Result, &contexts); err != nil || contexts.DefaultBrowserContextID == "" {
		t.Fatalf("Target.getBrowserContexts on the whole endpoint: %v %+v", err, contexts)
	}
	w.id++
	w.cl.Call(w.id, "Target.setDiscoverTargets", `{"discover":true,"filter":[{}]}`, "")
	w.made() // the targets there already
	return w, contexts.DefaultBrowserContextID
}

// made answers the targets made since the last call: everything the
// browser told the watcher before the answer to a request sent now.
func (w *targetsSeen) made() []createdTarget {
	w.id++
	w.cl.Send(w.id, "Target.getTargets", `{"filter":[{}]}`, "")
	_, events := w.cl.Answer(w.id)
	var out []createdTarget
	for _, e := range events {
		if e.Method != "Target.targetCreated" {
			continue
		}
		// A "browser" target is a DevTools connection to the browser (each
		// client's, through a relay), in no context: not something made.
		var p struct {
			TargetInfo struct {
				TargetID, Type, URL string
				BrowserContextID    string `json:"browserContextId"`
			}
		}
		if json.Unmarshal(e.Params, &p) == nil && p.TargetInfo.Type != "browser" {
			out = append(out, createdTarget{p.TargetInfo.TargetID, p.TargetInfo.Type, p.TargetInfo.URL, p.TargetInfo.BrowserContextID})
		}
	}
	return out
}

// worldContextID answers the browser context of the world at endpoint (its
// clients see it as the default one).
func worldContextID(t *testing.T, endpoint string) string {
	t.Helper()
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, endpoint+"/json/version", &version)
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	var contexts struct{ DefaultBrowserContextID string }
	if err := json.Unmarshal(cl.Call(1, "Target.getBrowserContexts", "", "").Result, &contexts); err != nil || contexts.DefaultBrowserContextID == "" {
		t.Fatalf("Target.getBrowserContexts on %s: %v %+v", endpoint, err, contexts)
	}
	cl.Conn.Close()
	return contexts.DefaultBrowserContextID
}

// Issue 47: webdriverio 9 in its default WebDriver BiDi mode, through
// Debian's chromedriver attached by debuggerAddress. chromedriver runs its
// BiDi mapper in a hidden tab that it gives the raw protocol
// (Target.exposeDevToolsProtocol): on the whole endpoint that works and the
// page loads; on a world's own port the relay refuses it (rule: no raw
// protocol in a world), so the session fails with an error naming the rule,
// and nothing chromedriver made is outside the world. webdriverio's classic
// mode ('wdio:enforceWebDriverClassic') works in the world.
func TestWebdriverioBiDiOnAWorld(t *testing.T) {
	chromium := actortest.Chromium(t)
	actortest.ClientsDir(t)
	actortest.Chromedriver(t)
	dir := t.TempDir()
	s := startServe(t, nil, "--browser", chromium, "--state-dir", dir)
	site := localPage(t)
	watch, defaultContext := watchTargets(t, s.endpoint)

	// The whole endpoint: BiDi connects and loads the page, and the
	// watcher sees the mapper's hidden tab made in the default context.
	res, driverLog := wdioWorld(t, s.endpoint, site+"/?m=wdio-whole", "bidi")
	if !res.Connected || !res.Bidi || res.Error != "" || res.Title != "page" || !slices.Equal(markers([]string{res.URL}), []string{"wdio-whole"}) {
		t.Fatalf("webdriverio BiDi on the whole endpoint: %+v, want a BiDi session on the page\nchromedriver log:\n%s", res, logTail(driverLog))
	}
	made := watch.made()
	if !slices.ContainsFunc(made, func(c createdTarget) bool { return c.Type == "other" && c.BrowserContextID == defaultContext }) {
		t.Errorf("on the whole endpoint the watcher saw no hidden mapper tab made in the default context %s: %+v", defaultContext, made)
	}
	if !strings.Contains(driverLog, "Target.exposeDevToolsProtocol") {
		t.Errorf("chromedriver did not expose the raw protocol to its mapper on the whole endpoint: the test does not see what it is about")
	}

	// A world on its own port, with a page in it: chromedriver attaches
	// only once the browser lists a page (on an empty world it polls
	// /json/list and gives up after 60 s, "unable to discover open pages").
	alice := worldOpen(t, dir, "alice")
	code, body, _ := actortest.HTTPDo(t, http.MethodPut, alice+"/json/new?"+url.QueryEscape(site+"/?m=alice"), "")
	if code != http.StatusOK {
		t.Fatalf("PUT %s/json/new: %d %s", alice, code, body)
	}
	aliceContext := worldContextID(t, alice)
	watch.made()
	var before []struct{ ID string }
	getJSON(t, alice+"/json/list", &before)

	res, driverLog = wdioWorld(t, alice, site+"/?m=wdio-alice", "bidi")
	made = watch.made()
	t.Logf("webdriverio BiDi on alice's port: %+v; targets made: %+v", res, made)
	// What chromedriver made stayed in the world: its mapper tab among it.
	if len(made) == 0 {
		t.Errorf("chromedriver made no target in alice's world: the mapper's tab was not tried")
	}
	for _, c := range made {
		if c.BrowserContextID != aliceContext {
			t.Errorf("webdriverio BiDi on alice's port made target %+v outside alice's context %s (default context %s)", c, aliceContext, defaultContext)
		}
	}
	// The relay refused the raw protocol, naming the rule (chromedriver's
	// log has the answer it got).
	refused := false
	for _, line := range strings.Split(driverLog, "\n") {
		if strings.Contains(line, "Response: Target.exposeDevToolsProtocol") &&
			strings.Contains(line, `Target.exposeDevToolsProtocol is refused in world \"alice\"`) &&
			strings.Contains(line, "(rule: no raw protocol in a world)") {
			refused = true
		}
	}
	if !refused {
		t.Errorf("chromedriver's log has no refusal of Target.exposeDevToolsProtocol naming the rule\n%s", logTail(driverLog))
	}
	// And the client is told why, by the rule's name.
	if res.Connected || !strings.Contains(res.Error, "no raw protocol in a world") {
		why := ""
		if refused {
			why = " (the relay's refusal reached chromedriver, which sent its mapper script without waiting for the answer: the mapper failed on the missing channel instead)"
		}
		t.Errorf("webdriverio BiDi on alice's port: connected %v, error %q; want a failed session whose error names the rule "+
			"(no raw protocol in a world)%s", res.Connected, res.Error, why)
	}
	// chromedriver closed its mapper tab; alice's page is still there.
	var after []struct{ ID string }
	getJSON(t, alice+"/json/list", &after)
	if len(after) != len(before) || len(before) != 1 || after[0].ID != before[0].ID {
		t.Errorf("alice's pages were %v before webdriverio BiDi, %v after", before, after)
	}

	// webdriverio's classic mode needs no raw channel: it works in the world.
	res, driverLog = wdioWorld(t, alice, site+"/?m=wdio-alice-classic", "classic")
	if !res.Connected || res.Bidi || res.Error != "" || res.Title != "page" || !slices.Equal(markers([]string{res.URL}), []string{"wdio-alice-classic"}) {
		t.Errorf("webdriverio classic on alice's port: %+v, want a session on the page\nchromedriver log:\n%s", res, logTail(driverLog))
	}
	for _, c := range watch.made() {
		if c.BrowserContextID != aliceContext {
			t.Errorf("webdriverio classic on alice's port made target %+v outside alice's context %s", c, aliceContext)
		}
	}
}

// logTail is the end of a long log, for a failure message.
func logTail(log string) string {
	const keep = 6000
	if len(log) <= keep {
		return log
	}
	return "…" + log[len(log)-keep:]
}

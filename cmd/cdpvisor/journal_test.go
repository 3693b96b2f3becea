package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/journal"
)

// Issue 37, the journal: after a Puppeteer agent's session in a guarded
// world (navigate to A, click, evaluate, a fetch of B that the policy
// denies), `cdpvisor world journal` and GET /context/NAME/journal hold
// its commands in order with the client's id, the navigations' URLs and
// B's denial; nothing of Runtime.evaluate's expression is in the journal
// file or in what is read. A follower (--follow) started before the agent
// prints the entries as they come and ends at an interrupt. Forgotten,
// the world leaves no journal.
func TestWorldJournalOfAnAgentsSession(t *testing.T) {
	actortest.ClientsDir(t)
	const marker = "SECRET-EXPR-MARKER"
	siteA := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>start</title><a id="next" href="/next" style="display:block;width:200px;height:50px">next</a>`)
		case "/next":
			fmt.Fprint(w, `<title>next</title><p>there</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer siteA.Close()
	var bConns atomic.Int64
	siteB := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "B") }))
	siteB.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			bConns.Add(1)
		}
	}
	siteB.Start()
	defer siteB.Close()
	hostA, hostB := strings.TrimPrefix(siteA.URL, "http://"), strings.TrimPrefix(siteB.URL, "http://")

	dir := t.TempDir()
	s := startServe(t, nil, "--browser", actortest.Chromium(t), "--state-dir", dir)
	out, stderr, code := runCLI(t, nil, "world", "open", "jr", "--allow-host", hostA, "--state-dir", dir)
	if code != 0 {
		t.Fatalf("world open jr: exit %d %q %q", code, out, stderr)
	}
	endpoint := strings.TrimSpace(out)
	// A follower from before the agent came: it prints each entry as it comes.
	follower := exec.Command(binary, "world", "journal", "jr", "--follow", "--state-dir", dir)
	following := &actortest.SyncBuffer{}
	follower.Stdout, follower.Stderr = following, following
	if err := follower.Start(); err != nil {
		t.Fatal(err)
	}
	defer follower.Process.Kill()
	got, err := actortest.NodeScript(t, 90*time.Second, "journal_agent.mjs", endpoint, siteA.URL+"/", siteB.URL+"/", marker)
	var res struct {
		OK           bool
		Title, Fetch string
	}
	if err != nil || json.Unmarshal([]byte(lastLine(got)), &res) != nil || !res.OK || res.Title != "next"+marker || res.Fetch != "denied" {
		t.Fatalf("journal_agent.mjs: %v %q", err, got)
	}
	if n := bConns.Load(); n != 0 {
		t.Errorf("B saw %d connection(s)", n)
	}

	var entries []journal.Entry
	var text string
	complete := func() bool {
		text, _, code = runCLI(t, nil, "world", "journal", "jr", "--state-dir", dir)
		entries = entries[:0]
		for _, l := range lines(text) {
			var e journal.Entry
			if json.Unmarshal([]byte(l), &e) == nil {
				entries = append(entries, e)
			}
		}
		return code == 0 && indexOf(entries, denialOf(hostB)) >= 0 && indexOf(entries, command("Runtime.evaluate", 2)) >= 0
	}
	if !eventually(10*time.Second, complete) {
		t.Fatalf("world journal jr (exit %d):\n%s", code, text)
	}
	// The follower saw the session come, and ends at an interrupt, exit 0.
	if !eventually(10*time.Second, func() bool { return strings.Contains(following.String(), `"denied":1`) }) {
		t.Errorf("world journal --follow printed:\n%s", following.String())
	}
	_ = follower.Process.Signal(os.Interrupt)
	if err := follower.Wait(); err != nil || !strings.Contains(following.String(), `"method":"Page.navigate"`) {
		t.Errorf("world journal --follow, interrupted: %v\n%s", err, following.String())
	}
	nav := indexOf(entries, func(e journal.Entry) bool {
		return e.Kind == journal.KindCommand && e.Method == "Page.navigate" && e.URL == siteA.URL+"/" && e.Answer == journal.AnswerOK
	})
	click := indexOf(entries, func(e journal.Entry) bool {
		return nav >= 0 && e.Seq > entries[nav].Seq && e.Method == "Input.dispatchMouseEvent" && e.Answer == journal.AnswerOK
	})
	followed := indexOf(entries, func(e journal.Entry) bool { return e.Kind == journal.KindNavigation && e.URL == siteA.URL+"/next" })
	eval := indexOf(entries, func(e journal.Entry) bool {
		return click >= 0 && e.Seq > entries[click].Seq && e.Method == "Runtime.evaluate" && e.Answer == journal.AnswerOK
	})
	if nav < 0 || click < 0 || followed < 0 || eval < 0 {
		t.Fatalf("want Page.navigate to A, then a click, the page at A/next, then Runtime.evaluate (at %d %d %d %d):\n%s", nav, click, followed, eval, text)
	}
	id := entries[nav].Client.ID
	for _, i := range []int{click, eval} {
		if c := entries[i].Client; c == nil || c.ID != id || id == 0 {
			t.Errorf("entry %d's client %+v, want the navigating client's id %d", i, c, id)
		}
	}
	if entries[nav].Target == "" || entries[click].Target != entries[nav].Target {
		t.Errorf("targets: navigate %q, click %q: want the page's, the same", entries[nav].Target, entries[click].Target)
	}

	// The file and the endpoint: the same entries, no marker anywhere.
	file, err := os.ReadFile(filepath.Join(dir, "journal", "jr.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(s.endpoint + "/context/jr/journal?since=" + fmt.Sprint(entries[nav].Seq-1))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), `{"time"`) || !strings.Contains(string(body), `"method":"Page.navigate"`) ||
		strings.Contains(string(body), fmt.Sprintf(`"seq":%d,`, entries[nav].Seq-1)) {
		t.Errorf("GET /context/jr/journal?since=: %s\n%s", resp.Status, body)
	}
	for what, b := range map[string]string{"the journal file": string(file), "world journal": text, "GET /context/jr/journal": string(body)} {
		if strings.Contains(b, marker) {
			t.Errorf("%s holds Runtime.evaluate's expression (%s)", what, marker)
		}
	}
	resp, err = http.Get(s.endpoint + "/context/jr/journal?since=yesterday")
	if err == nil {
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err != nil || resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), journal.ErrBadSince.Error()) {
		t.Errorf("since=yesterday: %v %s", err, body)
	}
	if _, stderr, code := runCLI(t, nil, "world", "journal", "jr", "--since", "yesterday", "--state-dir", dir); code != 2 || !strings.Contains(stderr, "--since") {
		t.Errorf("world journal --since yesterday: exit %d %q", code, stderr)
	}
	// Forgetting the world deletes its journal with its profile.
	if out, stderr, code := runCLI(t, nil, "world", "close", "jr", "--forget", "--state-dir", dir); code != 0 {
		t.Fatalf("world close jr --forget: exit %d %q %q", code, out, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "journal", "jr.jsonl*")); len(left) != 0 {
		t.Errorf("the forgotten world's journal is left: %v", left)
	}
}

func command(method string, atLeast int) func(journal.Entry) bool {
	n := 0
	return func(e journal.Entry) bool {
		if e.Kind == journal.KindCommand && e.Method == method {
			n++
		}
		return n >= atLeast
	}
}

func denialOf(host string) func(journal.Entry) bool {
	return func(e journal.Entry) bool { return e.Kind == journal.KindHost && e.Host == host && e.Denied > 0 }
}

func indexOf(entries []journal.Entry, ok func(journal.Entry) bool) int {
	for i, e := range entries {
		if ok(e) {
			return i
		}
	}
	return -1
}

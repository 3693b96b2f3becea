package wall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/transport"
)

// walledWorld is a guarded test world: file: URLs shut, files only from
// /world, downloads kept in /world.
type walledWorld struct{ benchWorld }

func (walledWorld) Walled() bool { return true }
func (walledWorld) DoorURL(u string) error {
	if strings.HasPrefix(u, "file:") {
		return errors.New("a guarded world reaches no local file")
	}
	return nil
}
func (walledWorld) DoorFile(p string) error {
	if !strings.HasPrefix(p, "/world/") {
		return errors.New("a guarded world's pages get files only from its own folders")
	}
	return nil
}
func (walledWorld) DoorDownloads(p string) (string, error) {
	if strings.HasPrefix(p, "/world/") {
		return p, nil
	}
	return "/world", nil
}

// historyBrowser answers each request, the page's history with a file
// entry (1) and a web one (2), and keeps what it was sent.
type historyBrowser struct {
	*actortest.ChanConn
	mu   sync.Mutex
	sent [][]byte
}

func (b *historyBrowser) Write(msg []byte, _ bool) error {
	h, _ := transport.ScanHead(msg)
	b.mu.Lock()
	b.sent = append(b.sent, bytes.Clone(msg))
	b.mu.Unlock()
	result := `{}`
	if h.Is("Page.getNavigationHistory") {
		result = `{"currentIndex":1,"entries":[{"id":1,"url":"file:///secret.txt"},{"id":2,"url":"https://example.com/"}]}`
	}
	b.In <- transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"result":%s`, h.ID, result), h.SessionID)
	return nil
}

// throughDoors sends requests through a relay of world w, one at a time,
// and answers what the browser was sent and what the client got.
func throughDoors(t *testing.T, w World, requests []string) (sent, got []string) {
	t.Helper()
	b := &historyBrowser{ChanConn: actortest.NewChanConn()}
	got = exchange(t, w, b, requests)
	for _, m := range b.sent {
		sent = append(sent, string(m))
	}
	return sent, got
}

// sentMethod is the message the browser was sent with id, "" if none.
func sentMethod(sent []string, id int) string {
	for _, m := range sent {
		if strings.HasPrefix(m, fmt.Sprintf(`{"id":%d,`, id)) {
			return m
		}
	}
	return ""
}

func TestEveryWorldRefusesTheRawProtocol(t *testing.T) {
	for _, w := range []World{benchWorld{}, walledWorld{}} {
		requests := []string{
			`{"id":1,"method":"Target.exposeDevToolsProtocol","params":{"targetId":"T1","bindingName":"cdp"}}`,
			`{"id":2,"method":"Target.sendMessageToTarget","params":{"sessionId":"S1","message":"{\"id\":1,\"method\":\"Target.createTarget\",\"params\":{\"url\":\"about:blank\"}}"}}`,
			`{"id":3,"method":"Target.openDevTools","params":{"targetId":"T1"}}`,
			`{"id":4,"method":"Tethering.bind","params":{"port":9999}}`,
		}
		sent, got := throughDoors(t, w, requests)
		if len(sent) != 0 {
			t.Errorf("%T: the browser was sent %q", w, sent)
		}
		for i, g := range got {
			if !strings.Contains(g, `"error"`) || !strings.Contains(g, "(rule: no raw protocol in a world)") || !strings.Contains(g, `is refused in world \"bench\"`) {
				t.Errorf("%T: %s answered %s", w, requests[i], g)
			}
		}
	}
}

func TestGuardedWorldsDoorsToTheMachine(t *testing.T) {
	requests := []string{
		`{"id":1,"method":"Page.navigate","params":{"url":"file:///secret.txt"},"sessionId":"S1"}`,
		`{"id":2,"method":"Page.navigate","params":{"url":"https://example.com/"},"sessionId":"S1"}`,
		`{"id":3,"method":"Target.createTarget","params":{"url":"file:///secret.txt"}}`,
		`{"id":4,"method":"Network.loadNetworkResource","params":{"url":"file:///secret.txt","frameId":"F","options":{"disableCache":false,"includeCredentials":false}},"sessionId":"S1"}`,
		`{"id":5,"method":"DOM.setFileInputFiles","params":{"files":["/home/u/.ssh/id_ed25519"],"backendNodeId":7},"sessionId":"S1"}`,
		`{"id":6,"method":"DOM.setFileInputFiles","params":{"files":["/world/uploads/cv.pdf"],"backendNodeId":7},"sessionId":"S1"}`,
		`{"id":7,"method":"Input.dispatchDragEvent","params":{"type":"drop","x":1,"y":1,"data":{"items":[],"files":["/etc/passwd"],"dragOperationsMask":1}},"sessionId":"S1"}`,
		`{"id":8,"method":"Browser.setDownloadBehavior","params":{"behavior":"allowAndName","downloadPath":"/tmp/playwright-artifacts-x","eventsEnabled":true}}`,
		`{"id":9,"method":"Page.setDownloadBehavior","params":{"behavior":"allow","downloadPath":"/home/u"},"sessionId":"S1"}`,
		`{"id":10,"method":"Browser.setDownloadBehavior","params":{"behavior":"deny"}}`,
		`{"id":11,"method":"Page.navigateToHistoryEntry","params":{"entryId":1},"sessionId":"S1"}`,
		`{"id":12,"method":"Page.navigateToHistoryEntry","params":{"entryId":2},"sessionId":"S1"}`,
		`{"id":13,"method":"Page.navigate","params":{"url":"https://example.com/","url":"file:///secret.txt"},"sessionId":"S1"}`,
		`{"id":14,"method":"Page.navigate","params":{"url":7},"sessionId":"S1"}`,
		`{"id":15,"method":"Browser.getBrowserCommandLine"}`,
		`{"id":16,"method":"SystemInfo.getProcessInfo"}`,
		`{"id":17,"method":"Fetch.continueRequest","params":{"requestId":"R1","url":"file:///secret.txt"},"sessionId":"S1"}`,
		`{"id":18,"method":"Fetch.continueRequest","params":{"requestId":"R2"},"sessionId":"S1"}`,
		`{"id":19,"method":"Page.navigate","params":{"u\u0072l":"file:///secret.txt"},"sessionId":"S1"}`,
	}
	sent, got := throughDoors(t, walledWorld{}, requests)
	refused := map[int]bool{1: true, 3: true, 4: true, 5: true, 7: true, 11: true, 13: true, 15: true, 16: true, 17: true, 19: true}
	for i, g := range got {
		id := i + 1
		var answer struct {
			Error *struct{ Message string }
		}
		_ = json.Unmarshal([]byte(g), &answer)
		switch {
		case id == 14:
			if answer.Error == nil || sentMethod(sent, id) != "" {
				t.Errorf("an unreadable url passed the doors: %s", g)
			}
		case refused[id]:
			if answer.Error == nil || !strings.Contains(answer.Error.Message, "(rule: a guarded world touches nothing of the machine)") || sentMethod(sent, id) != "" {
				t.Errorf("%s: answered %s, sent %q", requests[i], g, sentMethod(sent, id))
			}
		default:
			if answer.Error != nil || sentMethod(sent, id) == "" {
				t.Errorf("%s: answered %s, not sent", requests[i], g)
			}
		}
	}
	for id, want := range map[int]string{8: `"downloadPath":"/world"`, 9: `"downloadPath":"/world"`, 6: `"/world/uploads/cv.pdf"`} {
		if m := sentMethod(sent, id); !strings.Contains(m, want) {
			t.Errorf("request %d reached the browser as %s, want %s in it", id, m, want)
		}
	}
	if m := sentMethod(sent, 8); !strings.Contains(m, `"browserContextId":"W"`) {
		t.Errorf("the world's download behaviour left without its context: %s", m)
	}
	if m := sentMethod(sent, 10); strings.Contains(m, "downloadPath") {
		t.Errorf("a deny was given a path: %s", m)
	}
}

// A world without a guard lets its clients reach what its owner may.
func TestUnguardedWorldsDoorsStayOpen(t *testing.T) {
	requests := []string{
		`{"id":1,"method":"Page.navigate","params":{"url":"file:///secret.txt"},"sessionId":"S1"}`,
		`{"id":2,"method":"DOM.setFileInputFiles","params":{"files":["/home/u/a.txt"],"backendNodeId":7},"sessionId":"S1"}`,
		`{"id":3,"method":"Page.navigateToHistoryEntry","params":{"entryId":1},"sessionId":"S1"}`,
		`{"id":4,"method":"Page.setDownloadBehavior","params":{"behavior":"allow","downloadPath":"/home/u"},"sessionId":"S1"}`,
	}
	sent, got := throughDoors(t, benchWorld{}, requests)
	for i, g := range got {
		if strings.Contains(g, `"error"`) || sentMethod(sent, i+1) != requests[i] {
			t.Errorf("%s: answered %s, sent %q", requests[i], g, sentMethod(sent, i+1))
		}
	}
}

// A page refused the raw protocol finds, in place of its binding, the
// refusal: chromedriver's BiDi mapper, sent without waiting for the
// answer, fails with the rule's words.
func TestRefusedBindingThrowsTheRefusal(t *testing.T) {
	client := actortest.NewChanConn()
	b := &historyBrowser{ChanConn: actortest.NewChanConn()}
	serve(t, client, b, benchWorld{})
	next := func(what string) string {
		t.Helper()
		select {
		case m := <-client.Out:
			return string(m)
		case <-time.After(5 * time.Second):
			t.Fatalf("no message to the client after %s", what)
		}
		return ""
	}
	b.In <- []byte(`{"method":"Target.attachedToTarget","params":{"sessionId":"S9","targetInfo":{"targetId":"T1","type":"page","url":"about:blank","browserContextId":"W"},"waitingForDebugger":false}}`)
	if got := next("the attach"); !strings.Contains(got, `"S9"`) {
		t.Fatalf("the client was told %s", got)
	}
	client.In <- []byte(`{"id":1,"method":"Target.exposeDevToolsProtocol","params":{"targetId":"T1","bindingName":"cdp"}}`)
	if got := next("the request"); !strings.Contains(got, "no raw protocol in a world") {
		t.Fatalf("answered %s", got)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sent) != 1 {
		t.Fatalf("the browser was sent %q, want the binding's refusal alone", b.sent)
	}
	var eval struct {
		Method    string
		SessionID string
		Params    struct{ Expression string }
	}
	if err := json.Unmarshal(b.sent[0], &eval); err != nil || eval.Method != "Runtime.evaluate" || eval.SessionID != "S9" ||
		!strings.Contains(eval.Params.Expression, `globalThis, "cdp"`) || !strings.Contains(eval.Params.Expression, "(rule: no raw protocol in a world)") {
		t.Fatalf("the browser was sent %s", b.sent[0])
	}
}

// folderlessWorld is a guarded world whose instance keeps no downloads.
type folderlessWorld struct{ walledWorld }

func (folderlessWorld) DoorDownloads(string) (string, error) { return "", nil }

// A guarded world without a folder denies its client's downloads, and
// the client (Playwright, which sets them while it connects) still works.
func TestFolderlessGuardedWorldDeniesDownloads(t *testing.T) {
	sent, got := throughDoors(t, folderlessWorld{}, []string{
		`{"id":1,"method":"Browser.setDownloadBehavior","params":{"behavior":"allowAndName","downloadPath":"/tmp/playwright-artifacts-x","eventsEnabled":true}}`,
	})
	if strings.Contains(got[0], `"error"`) || !strings.Contains(sentMethod(sent, 1), `"behavior":"deny"`) {
		t.Fatalf("answered %s, sent %s", got[0], sentMethod(sent, 1))
	}
}

// A guarded world's doors are the actor's business; a world without a
// guard leaves them on the fast path, as before the doors.
func TestOnlyAGuardedWorldClaimsItsDoors(t *testing.T) {
	for _, tc := range []struct {
		msg                string
		unguarded, guarded bool
	}{
		{`{"id":1,"method":"Page.navigate","params":{"url":"https://example.com/"}}`, false, true},
		{`{"id":2,"method":"Fetch.continueRequest","params":{"requestId":"R"}}`, false, true},
		{`{"id":3,"method":"Target.exposeDevToolsProtocol","params":{"targetId":"T"}}`, true, true},
		{`{"id":4,"method":"Target.createTarget","params":{"url":"about:blank"}}`, true, true},
		{`{"id":5,"method":"Runtime.evaluate","params":{"expression":"1"}}`, false, false},
	} {
		h, _ := transport.ScanHead([]byte(tc.msg))
		if got := New(benchWorld{}, "W", 1).claims(&h); got != tc.unguarded {
			t.Errorf("a world without a guard claims %s: %v", tc.msg, got)
		}
		if got := New(walledWorld{}, "W", 1).claims(&h); got != tc.guarded {
			t.Errorf("a guarded world claims %s: %v", tc.msg, got)
		}
	}
}

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// In pipe mode the first answer is readiness: a browser that is never ready
// or hangs answers nothing.
func TestPipeAnswersNothing(t *testing.T) {
	for _, flag := range []string{"--fake-never-ready", "--fake-hang"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			f := startFake(t, "--remote-debugging-pipe", flag)
			f.send(command(1, "", "Browser.getVersion", ""))
			if m, ok := f.next(300 * time.Millisecond); ok {
				t.Fatalf("answered %s", m.Raw)
			}
		})
	}
}

func TestPipeReadyDelay(t *testing.T) {
	start := time.Now()
	f := startFake(t, "--remote-debugging-pipe", "--fake-ready-delay=400ms")
	f.send(command(1, "", "Browser.getVersion", ""))
	_, m := f.answer(1, "")
	f.wantOK(m, "")
	if elapsed := time.Since(start); elapsed < 400*time.Millisecond {
		t.Fatalf("answered after %v, before the 400ms ready delay", elapsed)
	}
}

// EOF on fd 3 ends the browser with 0; with no port there is no DevTools line.
func TestPipeEOF(t *testing.T) {
	f := startFake(t, "--remote-debugging-pipe")
	_, m := f.call(1, "", "Target.attachToBrowserTarget", "")
	f.wantOK(m, "")
	f.in.Close()
	if code := f.exitCode(5 * time.Second); code != 0 {
		t.Fatalf("exit code after EOF = %d, want 0", code)
	}
	if strings.Contains(f.stderr.String(), "DevTools listening") {
		t.Fatalf("a DevTools line in pipe mode without a port:\n%s", f.stderr)
	}
}

func TestPipeAutoAttachFailOnBrowserSession(t *testing.T) {
	marker := t.TempDir() + "/failed-once"
	for _, flag := range []string{"--fake-autoattach-fail", "--fake-autoattach-fail-once=" + marker} {
		t.Run(flag, func(t *testing.T) {
			f := startFake(t, "--remote-debugging-pipe", flag)
			_, m := f.call(1, "", "Target.attachToBrowserTarget", "")
			s := decodeAs[struct {
				SessionID string `json:"sessionId"`
			}](t, f.wantOK(m, "")).SessionID
			_, m = f.call(2, s, "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
			if m.Error == nil || m.Error.Message != "fake auto-attach failure" {
				t.Fatalf("setAutoAttach on a browser session: %s", m.Raw)
			}
			f.wantLast(m, s)
		})
	}
}

// Over the pipe, --fake-crash-after counts what clients send on sessions,
// not a multiplexer's own messages on the root (what HTTP and websocket
// handshakes were over the port); --fake-detach-before-crash says goodbye on
// every browser session too.
func TestPipeDetachBeforeCrash(t *testing.T) {
	f := startFake(t, "--remote-debugging-pipe", "--fake-crash-after=2", "--fake-detach-before-crash")
	_, m := f.call(1, "", "Target.attachToBrowserTarget", "")
	s := decodeAs[struct {
		SessionID string `json:"sessionId"`
	}](t, f.wantOK(m, "")).SessionID
	for id := int64(2); id < 5; id++ {
		_, m = f.call(id, "", "Browser.getVersion", "")
		f.wantOK(m, "")
	}
	events, m := f.call(5, s, "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	f.wantOK(m, s)
	children := map[string]bool{}
	for _, e := range of(events, s, "Target.attachedToTarget") {
		children[decodeAs[attached](t, e.Params).SessionID] = true
	}
	f.send(command(6, s, "Browser.getVersion", ""))
	var got []msg
	for {
		m, ok := f.next(5 * time.Second)
		if !ok {
			break
		}
		got = append(got, m)
	}
	if code := f.exitCode(5 * time.Second); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	if len(of(got, "", "Inspector.detached")) != 1 || len(of(got, s, "Inspector.detached")) != 1 {
		t.Fatalf("Inspector.detached on the root and on %s, got %v", s, got)
	}
	detached := of(got, s, "Target.detachedFromTarget")
	for _, d := range detached {
		f.wantLast(d, s)
		delete(children, decodeAs[detachedParams](t, d.Params).SessionID)
	}
	if len(children) != 0 || len(detached) != 2 {
		t.Fatalf("child sessions not detached: %v; got %v", children, got)
	}
}

// A websocket client that goes takes its disposeOnDetach contexts along;
// the port and the pipe serve the same browser.
func TestWebsocketDisposeOnDetach(t *testing.T) {
	f := startFake(t, "--remote-debugging-pipe", "--remote-debugging-port=0")
	_, m := f.call(1, "", "Browser.getVersion", "") // the pipe is served after the port
	f.wantOK(m, "")
	line := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
	url := line.FindStringSubmatch(f.stderr.String())
	for deadline := time.Now().Add(5 * time.Second); url == nil; url = line.FindStringSubmatch(f.stderr.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no DevTools line:\n%s", f.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ws, _, err := websocket.DefaultDialer.Dial(url[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	wsCall := func(id int, method, params string) string {
		t.Helper()
		ws.WriteMessage(websocket.TextMessage, []byte(command(int64(id), "", method, params)))
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(string(data), fmt.Sprintf(`{"id":%d,`, id)) {
				return string(data)
			}
		}
	}
	doomed := decodeAs[struct {
		Result contextParams `json:"result"`
	}](t, []byte(wsCall(1, "Target.createBrowserContext", `{"disposeOnDetach":true}`))).Result.BrowserContextID
	kept := decodeAs[struct {
		Result contextParams `json:"result"`
	}](t, []byte(wsCall(2, "Target.createBrowserContext", ""))).Result.BrowserContextID
	wsCall(3, "Target.createTarget", fmt.Sprintf(`{"url":"about:blank#doomed","browserContextId":%q}`, doomed))
	_, m = f.call(2, "", "Target.getBrowserContexts", "")
	if got := string(f.wantOK(m, "")); !strings.Contains(got, doomed) || !strings.Contains(got, kept) {
		t.Fatalf("contexts while the websocket is open: %s", got)
	}
	ws.Close()
	for id := int64(3); ; id++ {
		_, m = f.call(id, "", "Target.getTargets", "")
		if !strings.Contains(string(f.wantOK(m, "")), "#doomed") {
			break
		}
		if id > 100 {
			t.Fatal("the disposeOnDetach context's target outlived its websocket")
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, m = f.call(200, "", "Target.getBrowserContexts", "")
	if got := string(f.wantOK(m, "")); strings.Contains(got, doomed) || !strings.Contains(got, kept) {
		t.Fatalf("contexts after the websocket closed: %s (disposed %s, kept %s)", got, doomed, kept)
	}
}

package actortest

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestFakeBrowserStartsLikeChromium(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := startFake(t, nil, "--no-sandbox", "--headless=new", "--remote-debugging-port=0",
		"--user-data-dir="+dir, "--enable-features=Whatever", "--unknown-flag", "about:blank")
	wsURL, hostPort, uuid := p.ready()
	if !strings.HasPrefix(hostPort, "127.0.0.1:") {
		t.Errorf("DevTools line names %s, want 127.0.0.1:PORT", wsURL)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(uuid) {
		t.Errorf("browser path uuid %q is not a uuid", uuid)
	}
	noise := regexp.MustCompile(`^\[\d+:\d+:\d{4}/\d{6}\.\d{6}:ERROR:`)
	p.waitLine(noise, time.Second)

	_, port, _ := net.SplitHostPort(hostPort)
	want := port + "\n/devtools/browser/" + uuid
	var got []byte
	if !eventually(2*time.Second, func() bool {
		got, _ = os.ReadFile(dir + "/DevToolsActivePort")
		return string(got) == want
	}) {
		t.Errorf("DevToolsActivePort = %q, want %q", got, want)
	}

	p.signal(syscall.SIGTERM)
	if code := p.exitCode(2 * time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
}

func TestFakeBrowserWithoutDebuggingRunsUntilSignalled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := startFake(t, nil, "--headless", "--user-data-dir="+dir)
	// A SIGINT before its handler is in place ends it as a signal does (-1):
	// its profile is made after the handler (a loaded machine took over the
	// 300 ms this test once slept).
	ready := eventually(10*time.Second, func() bool {
		_, err := os.Stat(dir + "/Local State")
		return err == nil
	})
	if !p.running() {
		t.Fatal("fake browser exited on its own")
	}
	if !ready {
		t.Fatal("the fake browser made no profile within 10 s")
	}
	p.signal(syscall.SIGINT)
	if code := p.exitCode(2 * time.Second); code != 0 {
		t.Errorf("exit code after SIGINT = %d, want 0", code)
	}
}

func TestFakeBrowserRejectsBadFakeFlag(t *testing.T) {
	t.Parallel()
	p := startFake(t, nil, "--fake-start-delay=soon")
	if code := p.exitCode(5 * time.Second); code != 2 {
		t.Errorf("exit code = %d, want 2", code)
	}
}

type listEntry struct {
	DevtoolsFrontendURL  string `json:"devtoolsFrontendUrl"`
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

func TestFakeBrowserJSONVersion(t *testing.T) {
	t.Parallel()
	_, wsURL, hostPort := startPortFake(t)
	_, port, _ := net.SplitHostPort(hostPort)
	for _, tc := range []struct{ path, host string }{
		{"/json/version", ""},
		{"/json/version/", ""},
		{"/json/version", "localhost:" + port},
		{"/json/version", "[::1]:" + port},
	} {
		status, body, header := HTTPDo(t, "GET", "http://"+hostPort+tc.path, tc.host)
		if status != 200 || !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
			t.Fatalf("GET %s (Host %q): %d %s %q", tc.path, tc.host, status, header.Get("Content-Type"), body)
		}
		v := decode[map[string]string](t, json.RawMessage(body))
		wantURL := wsURL
		if tc.host != "" {
			wantURL = strings.Replace(wsURL, hostPort, tc.host, 1)
		}
		if v["webSocketDebuggerUrl"] != wantURL || v["Browser"] != "FakeChrome/156.0.0.0" ||
			v["Protocol-Version"] != "1.3" || v["File-Path-Style"] != "posix" || v["User-Agent"] == "" {
			t.Errorf("GET %s (Host %q) = %v; want webSocketDebuggerUrl %s", tc.path, tc.host, v, wantURL)
		}
	}
	status, body, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/version", "evil.test:"+port)
	if status != 500 || body != "Host header is specified and is not an IP address or localhost." {
		t.Errorf("GET with Host evil.test: %d %q", status, body)
	}
}

func TestFakeBrowserJSONTargets(t *testing.T) {
	t.Parallel()
	_, _, hostPort := startPortFake(t)
	base := "http://" + hostPort

	var first []listEntry
	for _, path := range []string{"/json", "/json/", "/json/list", "/json/list/"} {
		status, body, _ := HTTPDo(t, "GET", base+path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %q", path, status, body)
		}
		list := decode[[]listEntry](t, json.RawMessage(body))
		if len(list) != 2 || list[0].Type != "page" || list[0].URL != "about:blank" || list[1].Type != "browser_ui" {
			t.Fatalf("GET %s = %+v; want an about:blank page and a browser_ui target", path, list)
		}
		first = list
	}
	page := first[0]
	if page.WebSocketDebuggerURL != "ws://"+hostPort+"/devtools/page/"+page.ID ||
		page.DevtoolsFrontendURL != "/devtools/inspector.html?ws="+hostPort+"/devtools/page/"+page.ID {
		t.Errorf("page entry URLs: %+v", page)
	}

	status, body, _ := HTTPDo(t, "GET", base+"/json/new?about:blank", "")
	if status != 405 || body != "Using unsafe HTTP verb GET to invoke /json/new. This action supports only PUT verb." {
		t.Errorf("GET /json/new: %d %q", status, body)
	}
	status, body, _ = HTTPDo(t, "PUT", base+"/json/new?http://x.test/a%20b", "")
	created := decode[listEntry](t, json.RawMessage(body))
	if status != 200 || created.Type != "page" || created.URL != "http://x.test/a%20b" || created.ID == "" {
		t.Fatalf("PUT /json/new: %d %q", status, body)
	}
	_, body, _ = HTTPDo(t, "GET", base+"/json/list", "")
	if list := decode[[]listEntry](t, json.RawMessage(body)); len(list) != 3 {
		t.Errorf("after /json/new the list has %d targets, want 3", len(list))
	}

	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/json/activate/" + created.ID, 200, "Target activated"},
		{"/json/close/" + created.ID, 200, "Target is closing"},
		{"/json/close/" + created.ID, 404, "No such target id: " + created.ID},
		{"/json/activate/BAD", 404, "No such target id: BAD"},
		{"/json/foo/bar", 404, "Unknown command: foo"},
	} {
		if status, body, _ := HTTPDo(t, "GET", base+tc.path, ""); status != tc.status || body != tc.body {
			t.Errorf("GET %s: %d %q; want %d %q", tc.path, status, body, tc.status, tc.body)
		}
	}

	status, body, _ = HTTPDo(t, "GET", base+"/json/protocol", "")
	proto := decode[struct {
		Version struct{ Major, Minor string } `json:"version"`
		Domains []struct{ Domain string }     `json:"domains"`
	}](t, json.RawMessage(body))
	if status != 200 || proto.Version.Major != "1" || proto.Version.Minor != "3" || len(proto.Domains) == 0 {
		t.Errorf("GET /json/protocol: %d %q", status, body)
	}
}

func TestFakeBrowserWebsocketHandshake(t *testing.T) {
	t.Parallel()
	_, wsURL, hostPort := startPortFake(t, "--remote-allow-origins=http://a.test,http://b.test")
	_, allowAllURL, _ := startPortFake(t, "--remote-allow-origins=*")
	_, port, _ := net.SplitHostPort(hostPort)
	for _, tc := range []struct {
		url, origin string
		status      int
	}{
		{wsURL, "", 101},
		{wsURL, "http://" + hostPort, 101},
		{wsURL, "http://b.test", 101},
		{wsURL, "http://evil.test", 403},
		{wsURL, "http://localhost:" + port, 403},
		{allowAllURL, "http://evil.test", 101},
		{strings.Replace(wsURL, "/devtools/browser/", "/devtools/browser/0", 1), "", 404},
		{"ws://" + hostPort + "/devtools/page/NOPE", "", 500},
	} {
		header := http.Header{}
		if tc.origin != "" {
			header.Set("Origin", tc.origin)
		}
		ws, resp, err := websocket.DefaultDialer.Dial(tc.url, header)
		if ws != nil {
			ws.Close()
		}
		got := 0
		if resp != nil {
			got = resp.StatusCode
		}
		if got != tc.status {
			t.Errorf("dial %s with Origin %q: status %d (%v), want %d", tc.url, tc.origin, got, err, tc.status)
		}
	}
	status, body, _ := HTTPDo(t, "GET", "http://"+hostPort+"/devtools/browser/x", "")
	if status != 200 || body != "" {
		t.Errorf("plain GET on a websocket path: %d %q, want 200 and no body", status, body)
	}
}

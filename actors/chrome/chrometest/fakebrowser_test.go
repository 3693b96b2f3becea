package chrometest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestMain fails the run if a test leaves a process or profile behind.
func TestMain(m *testing.M) { os.Exit(LeakCheckMain(m)) }

// --- running the fake -------------------------------------------------------

// fakeProcess is one fake browser started in its own process group; the
// test's cleanup kills the whole group and waits until nothing of it is left.
type fakeProcess struct {
	t      testing.TB
	cmd    *exec.Cmd
	exited chan struct{} // closed once cmd.Wait has returned
	eof    chan struct{} // closed once stderr has been read to its end

	mu     sync.Mutex
	chunks []string // stderr as read, one entry per read
	stderr strings.Builder
}

func startFake(t testing.TB, extraFiles []*os.File, args ...string) *fakeProcess {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(FakeBrowser(t), args...)
	cmd.Stderr = w
	cmd.ExtraFiles = extraFiles
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p := &fakeProcess{t: t, cmd: cmd, exited: make(chan struct{}), eof: make(chan struct{})}
	go p.readStderr(r)
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.killGroup()
		r.Close()
	})
	return p
}

func (p *fakeProcess) readStderr(r io.Reader) {
	defer close(p.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.chunks = append(p.chunks, string(buf[:n]))
			p.stderr.Write(buf[:n])
			p.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// lines returns the complete stderr lines so far.
func (p *fakeProcess) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	text := p.stderr.String()
	return strings.Split(text[:strings.LastIndex(text, "\n")+1], "\n")
}

// allStderr waits for the end of stderr, which comes once every process
// holding it has exited, and returns its text.
func (p *fakeProcess) allStderr() string {
	p.t.Helper()
	select {
	case <-p.eof:
	case <-time.After(5 * time.Second):
		p.t.Fatal("stderr still open 5s on")
	}
	return strings.Join(p.lines(), "\n")
}

// waitLine waits for a whole stderr line matching re and returns its submatches.
func (p *fakeProcess) waitLine(re *regexp.Regexp, timeout time.Duration) []string {
	p.t.Helper()
	var found []string
	if !eventually(timeout, func() bool {
		for _, line := range p.lines() {
			if found = re.FindStringSubmatch(line); found != nil {
				return true
			}
		}
		return false
	}) {
		p.t.Fatalf("no stderr line matching %s within %v; stderr:\n%s", re, timeout, strings.Join(p.lines(), "\n"))
	}
	return found
}

var devToolsLine = regexp.MustCompile(`^DevTools listening on (ws://(\S+)/devtools/browser/(\S+))$`)

// ready waits for the DevTools line; it returns the ws URL, host:port and uuid.
func (p *fakeProcess) ready() (wsURL, hostPort, uuid string) {
	p.t.Helper()
	m := p.waitLine(devToolsLine, 10*time.Second)
	return m[1], m[2], m[3]
}

// exitCode waits for the process to end; -1 means killed by a signal.
func (p *fakeProcess) exitCode(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		p.t.Fatalf("fake browser still running after %v", timeout)
		return 0
	}
}

func (p *fakeProcess) running() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

func (p *fakeProcess) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatal(err)
	}
}

func (p *fakeProcess) killGroup() {
	pgid := p.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		p.t.Errorf("fake browser %d did not exit after SIGKILL", pgid)
	}
	if !eventually(5*time.Second, func() bool { return len(liveInGroup(pgid)) == 0 }) {
		p.t.Errorf("process group %d still has live processes %v", pgid, liveInGroup(pgid))
	}
}

// liveInGroup lists the processes of a group that are not zombies (an
// orphan's zombie lingers until some ancestor reaps it).
func liveInGroup(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if ok && group == pgid && state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat reads a process's state and process group from /proc/<pid>/stat.
func procStat(pid int) (state string, pgid int, ok bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// The command name may hold spaces and parentheses: fields start after the last ')'.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 3 {
		return "", 0, false
	}
	pgid, err = strconv.Atoi(fields[2])
	return fields[0], pgid, err == nil
}

func eventually(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// --- talking CDP ------------------------------------------------------------

type cdpMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	SessionID string `json:"sessionId"`
}

// cdpClient talks to the fake over a websocket or the pipe. A reader
// goroutine queues what arrives; the test goroutine alone reads the queue.
type cdpClient struct {
	t       testing.TB
	send    func([]byte) error
	in      chan []byte // closed when reading fails
	readErr error       // set before in is closed
}

func newClient(t testing.TB, send func([]byte) error, read func() ([]byte, error)) *cdpClient {
	c := &cdpClient{t: t, send: send, in: make(chan []byte, 1000)}
	go func() {
		for {
			msg, err := read()
			if err != nil {
				c.readErr = err
				close(c.in)
				return
			}
			c.in <- msg
		}
	}()
	return c
}

func dialCDP(t testing.TB, wsURL string) *cdpClient {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", wsURL, err)
	}
	t.Cleanup(func() { ws.Close() })
	return newClient(t,
		func(msg []byte) error { return ws.WriteMessage(websocket.TextMessage, msg) },
		func() ([]byte, error) { _, msg, err := ws.ReadMessage(); return msg, err })
}

// startPipeFake starts the fake with fds 3 and 4 as pipes, as Puppeteer does.
func startPipeFake(t testing.TB, args ...string) (*fakeProcess, *cdpClient, *os.File) {
	t.Helper()
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := startFake(t, []*os.File{cmdR, outW}, append([]string{"--remote-debugging-pipe"}, args...)...)
	cmdR.Close()
	outW.Close()
	t.Cleanup(func() { cmdW.Close(); outR.Close() })
	out := bufio.NewReader(outR)
	c := newClient(t,
		func(msg []byte) error { _, err := cmdW.Write(append(msg, 0)); return err },
		func() ([]byte, error) {
			msg, err := out.ReadBytes(0)
			if err != nil {
				return nil, err
			}
			return msg[:len(msg)-1], nil
		})
	return p, c, cmdW
}

func (c *cdpClient) write(msg string) {
	c.t.Helper()
	if err := c.send([]byte(msg)); err != nil {
		c.t.Fatalf("send %s: %v", msg, err)
	}
}

// next returns the next message, or false on timeout or a closed connection.
func (c *cdpClient) next(timeout time.Duration) (cdpMessage, bool) {
	c.t.Helper()
	select {
	case raw, ok := <-c.in:
		if !ok {
			return cdpMessage{}, false
		}
		var m cdpMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			c.t.Fatalf("bad message %q: %v", raw, err)
		}
		return m, true
	case <-time.After(timeout):
		return cdpMessage{}, false
	}
}

// call sends a command and returns the events that came before its answer,
// and the answer.
func (c *cdpClient) call(id int, sessionID, method, params string) ([]cdpMessage, cdpMessage) {
	c.t.Helper()
	msg := fmt.Sprintf(`{"id":%d,"method":%q`, id, method)
	if params != "" {
		msg += `,"params":` + params
	}
	if sessionID != "" {
		msg += fmt.Sprintf(`,"sessionId":%q`, sessionID)
	}
	c.write(msg + "}")
	var events []cdpMessage
	for {
		m, ok := c.next(5 * time.Second)
		if !ok {
			c.t.Fatalf("no answer to %s: timed out or connection closed", msg)
		}
		if string(m.ID) == strconv.Itoa(id) {
			return events, m
		}
		events = append(events, m)
	}
}

// closed waits for the connection to drop and returns the read error.
func (c *cdpClient) closed(timeout time.Duration) error {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case _, ok := <-c.in:
			if !ok {
				return c.readErr
			}
		case <-deadline:
			c.t.Fatalf("connection still open after %v", timeout)
		}
	}
}

func decode[T any](t testing.TB, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

type targetInfo struct {
	TargetID         string `json:"targetId"`
	Type             string `json:"type"`
	URL              string `json:"url"`
	Attached         bool   `json:"attached"`
	BrowserContextID string `json:"browserContextId"`
}

type attachedEvent struct {
	SessionID  string     `json:"sessionId"`
	TargetInfo targetInfo `json:"targetInfo"`
}

// methods lists the event names of msgs, in order.
func methods(msgs []cdpMessage) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Method)
	}
	return out
}

func wantResult(t testing.TB, m cdpMessage, want string) {
	t.Helper()
	if m.Error != nil || string(m.Result) != want {
		t.Fatalf("answer %+v result %s; want result %s", m.Error, m.Result, want)
	}
}

func wantError(t testing.TB, m cdpMessage, code int, message string) {
	t.Helper()
	if m.Error == nil || m.Error.Code != code || m.Error.Message != message {
		t.Fatalf("answer error %+v result %s; want error %d %q", m.Error, m.Result, code, message)
	}
}

// startPortFake starts the fake on a free port with a fresh profile.
func startPortFake(t testing.TB, args ...string) (p *fakeProcess, wsURL, hostPort string) {
	t.Helper()
	base := []string{"--no-sandbox", "--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + t.TempDir()}
	p = startFake(t, nil, append(base, args...)...)
	wsURL, hostPort, _ = p.ready()
	return p, wsURL, hostPort
}

var sessionIDShape = regexp.MustCompile(`^[0-9A-F]{32}$`)

// --- start-up and HTTP --------------------------------------------------------

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
	p := startFake(t, nil, "--headless", "--user-data-dir="+t.TempDir())
	time.Sleep(300 * time.Millisecond)
	if !p.running() {
		t.Fatal("fake browser exited on its own")
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

// --- CDP ------------------------------------------------------------------------

func TestFakeBrowserCDPBrowserConnection(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t)
	c := dialCDP(t, wsURL)

	c.write(`{"id":-9999,"method":"Browser.getVersion"}`)
	m, _ := c.next(5 * time.Second)
	if string(m.ID) != "-9999" || !strings.Contains(string(m.Result), `"product":"FakeChrome/156.0.0.0"`) {
		t.Fatalf("Browser.getVersion answer: id %s result %s", m.ID, m.Result)
	}

	events, resp := c.call(2, "", "Target.setDiscoverTargets", `{"discover":true}`)
	wantResult(t, resp, `{}`)
	if got := methods(events); strings.Join(got, ",") != "Target.targetCreated,Target.targetCreated" {
		t.Errorf("setDiscoverTargets events %v, want two targetCreated first", got)
	}

	// Auto-attach: attachedToTarget for every target, before the answer.
	events, resp = c.call(3, "", "Target.setAutoAttach", `{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}`)
	wantResult(t, resp, `{}`)
	var pageSession string
	attachedTypes := map[string]bool{}
	for _, e := range events {
		if e.Method != "Target.attachedToTarget" {
			continue
		}
		a := decode[attachedEvent](t, e.Params)
		if !sessionIDShape.MatchString(a.SessionID) || !a.TargetInfo.Attached {
			t.Errorf("attachedToTarget %s", e.Params)
		}
		attachedTypes[a.TargetInfo.Type] = true
		if a.TargetInfo.Type == "page" {
			pageSession = a.SessionID
		}
	}
	if !attachedTypes["page"] || !attachedTypes["browser_ui"] {
		t.Fatalf("setAutoAttach events %v: want page and browser_ui attached", methods(events))
	}

	for i, tc := range []struct{ expression, result string }{
		{"1", `{"result":{"type":"number","value":1,"description":"1"}}`},
		{"40 + 2", `{"result":{"type":"number","value":42,"description":"42"}}`},
		{"fake:bytes:5", `{"result":{"type":"string","value":"xxxxx"}}`},
		{"document.title", `{"result":{"type":"string","value":"document.title"}}`},
	} {
		_, resp := c.call(10+i, pageSession, "Runtime.evaluate", fmt.Sprintf(`{"expression":%q}`, tc.expression))
		wantResult(t, resp, tc.result)
		if resp.SessionID != pageSession {
			t.Errorf("evaluate answer has sessionId %q, want %q", resp.SessionID, pageSession)
		}
	}
	_, resp = c.call(20, pageSession, "Page.enable", "")
	wantResult(t, resp, `{}`)
	_, resp = c.call(21, "F00", "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32001, "Session with given id not found.")
	_, resp = c.call(22, "", "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32601, "'Runtime.evaluate' wasn't found")

	// Malformed JSON is ignored; a non-integer id is refused without an id.
	c.write(`{"id":23,"method":`)
	c.write(`{"id":1.5,"method":"Browser.getVersion"}`)
	m, _ = c.next(5 * time.Second)
	if m.ID != nil || m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("answer to id 1.5: %+v", m)
	}
	_, resp = c.call(24, "", "Browser.getVersion", "")
	if resp.Error != nil {
		t.Errorf("after malformed input: %+v", resp.Error)
	}

	// A second client that discovers targets hears about the first one's work.
	other := dialCDP(t, wsURL)
	_, resp = other.call(1, "", "Target.setDiscoverTargets", `{"discover":true}`)
	wantResult(t, resp, `{}`)

	events, resp = c.call(30, "", "Target.createTarget", `{"url":"about:blank"}`)
	newTarget := decode[struct{ TargetID string }](t, resp.Result).TargetID
	if got := strings.Join(methods(events), ","); got != "Target.targetCreated,Target.targetInfoChanged,Target.attachedToTarget" {
		t.Errorf("createTarget events %s", got)
	}
	if m, ok := other.next(5 * time.Second); !ok || m.Method != "Target.targetCreated" {
		t.Errorf("second client got %+v, want targetCreated", m)
	}

	events, resp = c.call(31, "", "Target.attachToTarget", fmt.Sprintf(`{"targetId":%q,"flatten":true}`, newTarget))
	attached := decode[struct{ SessionID string }](t, resp.Result).SessionID
	if len(events) != 1 || events[0].Method != "Target.attachedToTarget" ||
		decode[attachedEvent](t, events[0].Params).SessionID != attached {
		t.Errorf("attachToTarget events %v, answer %s", methods(events), resp.Result)
	}
	_, resp = c.call(32, "", "Target.attachToTarget", `{"targetId":"NOPE","flatten":true}`)
	wantError(t, resp, -32602, "No target with given id found")

	// Closing answers first, then detaches both sessions and destroys the target.
	_, resp = c.call(33, "", "Target.closeTarget", fmt.Sprintf(`{"targetId":%q}`, newTarget))
	wantResult(t, resp, `{"success":true}`)
	var after []string
	for range 3 {
		m, _ := c.next(5 * time.Second)
		after = append(after, m.Method)
		if m.Method == "Target.detachedFromTarget" && decode[targetInfo](t, m.Params).TargetID != newTarget {
			t.Errorf("detachedFromTarget %s", m.Params)
		}
	}
	if strings.Join(after, ",") != "Target.detachedFromTarget,Target.detachedFromTarget,Target.targetDestroyed" {
		t.Errorf("after closeTarget: %v", after)
	}
	_, resp = c.call(34, attached, "Runtime.evaluate", `{"expression":"1"}`)
	wantError(t, resp, -32001, "Session with given id not found.")

	// Browser contexts.
	_, resp = c.call(40, "", "Target.createBrowserContext", "")
	ctx := decode[struct{ BrowserContextID string }](t, resp.Result).BrowserContextID
	_, resp = c.call(41, "", "Target.getBrowserContexts", "")
	if ids := decode[struct{ BrowserContextIDs []string }](t, resp.Result).BrowserContextIDs; len(ids) != 1 || ids[0] != ctx {
		t.Errorf("getBrowserContexts %s, want [%s]", resp.Result, ctx)
	}
	_, resp = c.call(42, "", "Target.createTarget", fmt.Sprintf(`{"url":"about:blank","browserContextId":%q}`, ctx))
	inContext := decode[struct{ TargetID string }](t, resp.Result).TargetID
	_, resp = c.call(43, "", "Target.getTargets", "")
	infos := decode[struct{ TargetInfos []targetInfo }](t, resp.Result).TargetInfos
	if len(infos) != 3 || infos[2].TargetID != inContext || infos[2].BrowserContextID != ctx {
		t.Errorf("getTargets %s", resp.Result)
	}
	_, resp = c.call(44, "", "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, ctx))
	wantResult(t, resp, `{}`)
	_, resp = c.call(45, "", "Target.getTargets", "")
	if infos := decode[struct{ TargetInfos []targetInfo }](t, resp.Result).TargetInfos; len(infos) != 2 {
		t.Errorf("after disposeBrowserContext getTargets %s", resp.Result)
	}
	_, resp = c.call(46, "", "Target.disposeBrowserContext", fmt.Sprintf(`{"browserContextId":%q}`, ctx))
	wantError(t, resp, -32000, "Failed to find context with id "+ctx)
	_, resp = c.call(47, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":false}`)
	wantError(t, resp, -32602, "Only flatten protocol is supported with browser level auto-attach")

	_, resp = c.call(-9999, "", "Browser.close", "")
	wantResult(t, resp, `{}`)
	if code := p.exitCode(5 * time.Second); code != 0 {
		t.Errorf("exit code after Browser.close = %d, want 0", code)
	}
}

func TestFakeBrowserCDPPageConnection(t *testing.T) {
	t.Parallel()
	_, _, hostPort := startPortFake(t)
	_, body, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/list", "")
	page := decode[[]listEntry](t, json.RawMessage(body))[0]
	c := dialCDP(t, page.WebSocketDebuggerURL)

	_, resp := c.call(1, "", "Runtime.evaluate", `{"expression":"2+2"}`)
	wantResult(t, resp, `{"result":{"type":"number","value":4,"description":"4"}}`)
	_, resp = c.call(2, "", "Page.navigate", `{"url":"about:blank"}`)
	wantResult(t, resp, `{}`)

	HTTPDo(t, "GET", "http://"+hostPort+"/json/close/"+page.ID, "")
	if m, ok := c.next(5 * time.Second); !ok || m.Method != "Inspector.detached" || string(m.Params) != `{"reason":"target_closed"}` {
		t.Errorf("after /json/close the page client got %+v", m)
	}
	c.closed(5 * time.Second)
}

func TestFakeBrowserCDPLargeMessages(t *testing.T) {
	t.Parallel()
	_, wsURL, _ := startPortFake(t)
	c := dialCDP(t, wsURL)
	events, _ := c.call(1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	session := decode[attachedEvent](t, events[0].Params).SessionID

	const size = 16 << 20
	_, resp := c.call(2, session, "Runtime.evaluate", fmt.Sprintf(`{"expression":"fake:bytes:%d"}`, size))
	if got := decode[struct{ Result struct{ Value string } }](t, resp.Result).Result.Value; len(got) != size {
		t.Errorf("fake:bytes:%d gave %d bytes", size, len(got))
	}
	big := strings.Repeat("y", size)
	_, resp = c.call(3, session, "Runtime.evaluate", fmt.Sprintf(`{"expression":%q}`, big))
	if got := decode[struct{ Result struct{ Value string } }](t, resp.Result).Result.Value; got != big {
		t.Errorf("a %d byte expression came back as %d bytes", size, len(got))
	}
}

func TestFakeBrowserPipe(t *testing.T) {
	t.Parallel()
	t.Run("commands and Browser.close", func(t *testing.T) {
		t.Parallel()
		p, c, cmdW := startPipeFake(t, "--headless")
		// Two messages in one write are two messages.
		if _, err := cmdW.Write([]byte(`{"id":1,"method":"Browser.getVersion"}` + "\x00" +
			`{"id":2,"method":"Target.setAutoAttach","params":{"autoAttach":true,"flatten":true}}` + "\x00")); err != nil {
			t.Fatal(err)
		}
		var got []string
		for len(got) == 0 || got[len(got)-1] != "2" {
			m, ok := c.next(5 * time.Second)
			if !ok {
				t.Fatalf("no more pipe messages after %v", got)
			}
			got = append(got, string(m.ID)+m.Method)
		}
		if strings.Join(got, " ") != "1 Target.attachedToTarget Target.attachedToTarget 2" {
			t.Errorf("pipe messages %v", got)
		}
		_, resp := c.call(-9999, "", "Browser.close", "")
		wantResult(t, resp, `{}`)
		if code := p.exitCode(5 * time.Second); code != 0 {
			t.Errorf("exit code after Browser.close = %d", code)
		}
		if strings.Contains(p.allStderr(), "DevTools listening") {
			t.Error("pipe mode printed a DevTools line")
		}
	})
	t.Run("EOF ends the browser", func(t *testing.T) {
		t.Parallel()
		p, c, cmdW := startPipeFake(t)
		_, resp := c.call(1, "", "Browser.getVersion", "")
		if resp.Error != nil {
			t.Fatal(resp.Error)
		}
		cmdW.Close()
		if code := p.exitCode(5 * time.Second); code != 0 {
			t.Errorf("exit code after EOF = %d", code)
		}
	})
	t.Run("with a port too", func(t *testing.T) {
		t.Parallel()
		p, c, _ := startPipeFake(t, "--remote-debugging-port=0")
		wsURL, _, _ := p.ready()
		_, resp := c.call(1, "", "Browser.getVersion", "")
		wantResult(t, resp, string(dialCDPCall(t, wsURL)))
	})
	t.Run("fds not open", func(t *testing.T) {
		t.Parallel()
		p := startFake(t, nil, "--remote-debugging-pipe")
		if code := p.exitCode(5 * time.Second); code != 13 {
			t.Errorf("exit code = %d, want 13", code)
		}
		p.waitLine(regexp.MustCompile(`Remote debugging pipe file descriptors are not open\.$`), time.Second)
	})
}

// dialCDPCall asks a fake for its version over a websocket.
func dialCDPCall(t testing.TB, wsURL string) json.RawMessage {
	t.Helper()
	_, resp := dialCDP(t, wsURL).call(1, "", "Browser.getVersion", "")
	return resp.Result
}

// --- faults -----------------------------------------------------------------------

func TestFakeBrowserStartDelay(t *testing.T) {
	t.Parallel()
	start := time.Now()
	startPortFake(t, "--fake-start-delay=300ms")
	if elapsed := time.Since(start); elapsed < 300*time.Millisecond {
		t.Errorf("DevTools line after %v, want at least 300ms", elapsed)
	}
}

func TestFakeBrowserNeverReady(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := startFake(t, nil, "--remote-debugging-port=0", "--user-data-dir="+dir, "--fake-never-ready")
	p.waitLine(regexp.MustCompile(`Failed to connect to the bus`), 5*time.Second)
	time.Sleep(500 * time.Millisecond)
	if strings.Contains(strings.Join(p.lines(), "\n"), "DevTools listening") || !p.running() {
		t.Fatalf("never-ready fake: running %v, stderr %q", p.running(), p.lines())
	}
	if _, err := os.Stat(dir + "/DevToolsActivePort"); err == nil {
		t.Error("never-ready fake wrote DevToolsActivePort")
	}
	p.signal(syscall.SIGTERM)
	if code := p.exitCode(2 * time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d", code)
	}
}

func TestFakeBrowserExitCodeAndStderrLines(t *testing.T) {
	t.Parallel()
	p := startFake(t, nil, "--remote-debugging-port=0",
		"--fake-stderr-line=Running as root without --no-sandbox is not supported. See https://crbug.com/638180.",
		"--fake-stderr-line=second line", "--fake-exit-code=21")
	if code := p.exitCode(5 * time.Second); code != 21 {
		t.Errorf("exit code = %d, want 21", code)
	}
	text := p.allStderr()
	first := strings.Index(text, "Running as root without --no-sandbox is not supported. See https://crbug.com/638180.\n")
	second := strings.Index(text, "second line\n")
	if first < 0 || second < first || strings.Contains(text, "DevTools listening") {
		t.Errorf("stderr %q", text)
	}
}

func TestFakeBrowserIgnoreSIGTERM(t *testing.T) {
	t.Parallel()
	p, _, _ := startPortFake(t, "--fake-ignore-sigterm")
	p.signal(syscall.SIGTERM)
	time.Sleep(300 * time.Millisecond)
	if !p.running() {
		t.Fatal("fake exited on SIGTERM despite --fake-ignore-sigterm")
	}
	p.signal(syscall.SIGKILL)
	if code := p.exitCode(5 * time.Second); code != -1 {
		t.Errorf("exit code after SIGKILL = %d, want -1 (signalled)", code)
	}
}

func TestFakeBrowserSplitStderr(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t, "--fake-split-stderr")
	p.mu.Lock()
	chunks := append([]string(nil), p.chunks...)
	p.mu.Unlock()
	for _, chunk := range chunks {
		if strings.Contains(chunk, "DevTools list") && strings.Contains(chunk, "/devtools/browser/") {
			t.Errorf("the DevTools line arrived in one read: %q", chunk)
		}
	}
	dialCDPCall(t, wsURL)
}

func TestFakeBrowserReadyDelay(t *testing.T) {
	t.Parallel()
	_, _, hostPort := startPortFake(t, "--fake-ready-delay=500ms")
	lineAt := time.Now()
	if status, _, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/version", ""); status != 503 {
		t.Errorf("/json/version right after the line: %d, want 503", status)
	}
	if !eventually(5*time.Second, func() bool {
		status, _, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/version", "")
		return status == 200
	}) {
		t.Fatal("/json/version never became ready")
	}
	if elapsed := time.Since(lineAt); elapsed < 400*time.Millisecond {
		t.Errorf("ready %v after the line, want about 500ms", elapsed)
	}
}

func TestFakeBrowserCrashAfter(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t, "--fake-crash-after=3")
	c := dialCDP(t, wsURL)
	c.call(1, "", "Browser.getVersion", "")
	c.call(2, "", "Browser.getVersion", "")
	c.write(`{"id":3,"method":"Browser.getVersion"}`)
	if m, ok := c.next(5 * time.Second); ok {
		t.Errorf("the crashing message was answered: %+v", m)
	}
	if err := c.closed(time.Second); !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
		t.Errorf("read error %v, want close 1006", err)
	}
	if code := p.exitCode(5 * time.Second); code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
}

func TestFakeBrowserDetachBeforeCrash(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t, "--fake-crash-after=2", "--fake-detach-before-crash")
	c := dialCDP(t, wsURL)
	events, _ := c.call(1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	c.write(`{"id":2,"method":"Browser.getVersion"}`)
	var got []string
	for {
		m, ok := c.next(5 * time.Second)
		if !ok {
			break
		}
		got = append(got, m.Method+string(m.Params))
	}
	want := []string{`Inspector.detached{"reason":"Render process gone."}`}
	for _, e := range events {
		if e.Method == "Target.attachedToTarget" {
			want = append(want, "Target.detachedFromTarget") // params checked below
		}
	}
	if len(got) != len(want) || got[0] != want[0] {
		t.Fatalf("before the crash: %v", got)
	}
	for _, g := range got[1:] {
		if !strings.HasPrefix(g, "Target.detachedFromTarget{\"sessionId\":") {
			t.Errorf("before the crash: %s", g)
		}
	}
	if err := c.readErr; !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
		t.Errorf("read error %v, want close 1006", err)
	}
	if code := p.exitCode(5 * time.Second); code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
}

func TestFakeBrowserHang(t *testing.T) {
	t.Parallel()
	_, wsURL, hostPort := startPortFake(t, "--fake-hang")
	if status, _, _ := HTTPDo(t, "GET", "http://"+hostPort+"/json/version", ""); status != 200 {
		t.Errorf("/json/version of a hung browser: %d, want 200", status)
	}
	c := dialCDP(t, wsURL)
	c.write(`{"id":1,"method":"Browser.getVersion"}`)
	if m, ok := c.next(300 * time.Millisecond); ok {
		t.Errorf("hung browser answered %+v", m)
	}
}

func TestFakeBrowserAutoAttachFail(t *testing.T) {
	t.Parallel()
	_, wsURL, _ := startPortFake(t, "--fake-autoattach-fail")
	c := dialCDP(t, wsURL)
	events, resp := c.call(1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	wantError(t, resp, -32000, "fake auto-attach failure")
	if len(events) != 0 {
		t.Errorf("events before the failure: %v", methods(events))
	}
}

// readPids waits for the pid file and returns its pids.
func readPids(t testing.TB, path string) []int {
	t.Helper()
	var pids []int
	if !eventually(5*time.Second, func() bool {
		data, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pids = nil
		for _, field := range strings.Fields(string(data)) {
			pid, err := strconv.Atoi(field)
			if err != nil {
				t.Fatalf("pid file %q", data)
			}
			pids = append(pids, pid)
		}
		return true
	}) {
		t.Fatal("no pid file")
	}
	return pids
}

func TestFakeBrowserSpawnChild(t *testing.T) {
	t.Parallel()
	t.Run("SIGTERM ends the helper too", func(t *testing.T) {
		t.Parallel()
		pidFile := t.TempDir() + "/pids"
		p, _, _ := startPortFake(t, "--fake-spawn-child", "--fake-pid-file="+pidFile)
		pids := readPids(t, pidFile)
		if len(pids) != 2 || pids[0] != p.cmd.Process.Pid {
			t.Fatalf("pid file %v, want [%d child]", pids, p.cmd.Process.Pid)
		}
		if _, pgid, ok := procStat(pids[1]); !ok || pgid != p.cmd.Process.Pid {
			t.Fatalf("helper %d is in group %d, want %d", pids[1], pgid, p.cmd.Process.Pid)
		}
		p.signal(syscall.SIGTERM)
		if code := p.exitCode(5 * time.Second); code != 0 {
			t.Errorf("exit code = %d", code)
		}
		if !eventually(5*time.Second, func() bool { return len(liveInGroup(pids[0])) == 0 }) {
			t.Errorf("after SIGTERM the group still has %v", liveInGroup(pids[0]))
		}
	})
	t.Run("SIGKILL leaves the helper for the group kill", func(t *testing.T) {
		t.Parallel()
		pidFile := t.TempDir() + "/pids"
		p := startFake(t, nil, "--fake-spawn-child", "--fake-pid-file="+pidFile, "--fake-never-ready")
		pids := readPids(t, pidFile)
		p.signal(syscall.SIGKILL)
		p.exitCode(5 * time.Second)
		time.Sleep(100 * time.Millisecond)
		if live := liveInGroup(pids[0]); len(live) != 1 || live[0] != pids[1] {
			t.Errorf("after SIGKILL of the browser the group has %v, want the helper %d", live, pids[1])
		}
		// The cleanup's group kill must end the helper.
	})
}

func TestFakeBrowserPortTakenFallsBackToIPv6(t *testing.T) {
	t.Parallel()
	if l, err := net.Listen("tcp", "[::1]:0"); err != nil {
		t.Skip("no IPv6 loopback:", err)
	} else {
		l.Close()
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	p := startFake(t, nil, "--remote-debugging-port="+strconv.Itoa(port))
	wsURL, hostPort, _ := p.ready()
	if hostPort != "[::1]:"+strconv.Itoa(port) {
		t.Errorf("DevTools line %s, want [::1]:%d", wsURL, port)
	}
	u, _ := url.Parse(wsURL)
	dialCDPCall(t, "ws://"+u.Host+u.Path)
}

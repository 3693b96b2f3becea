package actortest

import (
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

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
	// The fake pauses between its writes, but a reader starved on a loaded
	// machine may still get two in one read: one split seen of three starts
	// shows the fake splits (unsplit, every start arrives whole).
	var whole []string
	for range 3 {
		p, wsURL, _ := startPortFake(t, "--fake-split-stderr")
		dialCDPCall(t, wsURL)
		p.mu.Lock()
		chunks := append([]string(nil), p.chunks...)
		p.mu.Unlock()
		i := slices.IndexFunc(chunks, func(chunk string) bool {
			return strings.Contains(chunk, "DevTools list") && strings.Contains(chunk, "/devtools/browser/")
		})
		if i < 0 {
			return
		}
		whole = append(whole, chunks[i])
	}
	t.Errorf("the DevTools line arrived in one read each of 3 starts: %q", whole)
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
	c := DialCDP(t, wsURL)
	call(c, 1, "", "Browser.getVersion", "")
	call(c, 2, "", "Browser.getVersion", "")
	c.Write(`{"id":3,"method":"Browser.getVersion"}`)
	if m, ok := c.NextWithin(5 * time.Second); ok {
		t.Errorf("the crashing message was answered: %s", m.Raw)
	}
	if err := c.WaitClosedWithin(time.Second); !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
		t.Errorf("read error %v, want close 1006", err)
	}
	if code := p.exitCode(5 * time.Second); code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
}

func TestFakeBrowserDetachBeforeCrash(t *testing.T) {
	t.Parallel()
	p, wsURL, _ := startPortFake(t, "--fake-crash-after=2", "--fake-detach-before-crash")
	c := DialCDP(t, wsURL)
	events, _ := call(c, 1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
	c.Write(`{"id":2,"method":"Browser.getVersion"}`)
	var got []string
	for {
		m, ok := c.NextWithin(5 * time.Second)
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
	if err := c.Err(); !websocket.IsCloseError(err, websocket.CloseAbnormalClosure) {
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
	c := DialCDP(t, wsURL)
	c.Write(`{"id":1,"method":"Browser.getVersion"}`)
	if m, ok := c.NextWithin(300 * time.Millisecond); ok {
		t.Errorf("hung browser answered %s", m.Raw)
	}
}

func TestFakeBrowserAutoAttachFail(t *testing.T) {
	t.Parallel()
	_, wsURL, _ := startPortFake(t, "--fake-autoattach-fail")
	c := DialCDP(t, wsURL)
	events, resp := call(c, 1, "", "Target.setAutoAttach", `{"autoAttach":true,"flatten":true}`)
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

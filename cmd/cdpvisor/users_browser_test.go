package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// usersChromium is a Chromium the user runs on the default profile of a
// test HOME, with a debugging port: it stands in for Chrome 144+ after the
// user allowed remote debugging (DevToolsActivePort, one socket).
type usersChromium struct {
	home, profile string
	cmd           *exec.Cmd
}

func startUsersChromium(t *testing.T, home string) *usersChromium {
	t.Helper()
	u := &usersChromium{home: home, profile: filepath.Join(home, ".config", "chromium")}
	_ = os.Remove(filepath.Join(u.profile, "DevToolsActivePort")) // the last run's
	u.cmd = exec.Command(actortest.Chromium(t), "--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--remote-debugging-port=0", "--user-data-dir="+u.profile, "about:blank")
	u.cmd.Env = append(os.Environ(), "HOME="+home)
	u.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := u.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := u.cmd.Process.Pid
	t.Cleanup(func() { u.stop(t) })
	go func() { _ = u.cmd.Wait() }() // owned: reaps it whenever it ends
	waitFile(t, filepath.Join(u.profile, "DevToolsActivePort"))
	if !actortest.Alive(pid) {
		t.Fatal("the user's browser did not start")
	}
	return u
}

// stop ends the user's browser as the user closing it would.
func (u *usersChromium) stop(t *testing.T) {
	pid := u.cmd.Process.Pid
	if !actortest.Alive(pid) {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	for end := time.Now().Add(10 * time.Second); actortest.Alive(pid); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}

func (u *usersChromium) port(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(u.profile, "DevToolsActivePort"))
	var port int
	if err == nil {
		_, err = fmt.Sscanf(string(data), "%d", &port)
	}
	if err != nil {
		t.Fatalf("DevToolsActivePort: %v", err)
	}
	return port
}

func serveAttached(t *testing.T, u *usersChromium, extra ...string) *served {
	return startServe(t, []string{"HOME=" + u.home}, append([]string{"--attach", "--browser", "chromium", "--state-dir", t.TempDir()}, extra...)...)
}

// Issue 28: three clients of the endpoint ride one connection to the
// user's browser; the browser closed and started again on its profile
// (another port) is followed by the same clients, with nothing launched.
func TestTheUsersBrowserIsSharedOverOneConnection(t *testing.T) {
	u := startUsersChromium(t, t.TempDir())
	s := serveAttached(t, u)
	clients := []*actortest.LineScript{
		actortest.StartLineScript(t, 90*time.Second, "puppeteer_survive.mjs", s.endpoint, "1"),
		actortest.StartLineScript(t, 90*time.Second, "puppeteer_survive.mjs", s.endpoint, "1"),
		actortest.StartLineScript(t, 90*time.Second, "playwright_survive.mjs", s.endpoint, "1"),
	}
	for i, c := range clients {
		if line, _ := c.Next(); !strings.Contains(line, `"ready":1`) {
			t.Fatalf("client %d: %q", i, line)
		}
	}
	if n := connectionsTo(t, s.cmd.Process.Pid, u.port(t)); n != 1 {
		t.Fatalf("cdpvisor has %d connections to the user's browser with three clients, want 1", n)
	}
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("cdpvisor launched %v", b)
	}
	oldPort := u.port(t)
	u.stop(t)
	u = startUsersChromium(t, u.home) // the same profile, another port
	if u.port(t) == oldPort {
		t.Logf("the browser came back on its old port %d", oldPort)
	}
	// One after the other: each checks every page the browser has, which
	// another client's cycle would be changing under it.
	for i, c := range clients {
		c.Go()
		if line, _ := c.Next(); !strings.Contains(line, `"ok":true`) {
			t.Fatalf("client %d after the browser came back: %q", i, line)
		}
		if err := c.Wait(); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	if n := connectionsTo(t, s.cmd.Process.Pid, u.port(t)); n != 1 {
		t.Errorf("cdpvisor has %d connections to the browser that came back, want 1", n)
	}
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("cdpvisor launched %v", b)
	}
}

// Neither kill -9 nor SIGTERM of cdpvisor ends the user's browser, and no
// watchdog does either.
func TestTheUsersBrowserOutlivesCdpvisor(t *testing.T) {
	u := startUsersChromium(t, t.TempDir())
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		s := serveAttached(t, u)
		endpointAnswers(t, s.endpoint)
		_ = s.cmd.Process.Signal(sig)
		<-s.done
		s.done <- nil
		time.Sleep(1500 * time.Millisecond) // a watchdog would have acted by now
		if !actortest.Alive(u.cmd.Process.Pid) {
			t.Fatalf("the user's browser ended with cdpvisor's %v", sig)
		}
		if code, _, _ := actortest.HTTPDo(t, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/json/version", u.port(t)), ""); code != http.StatusOK {
			t.Fatalf("after cdpvisor's %v the user's browser answers %d", sig, code)
		}
	}
}

// With no browser running, a request waits up to the time-out, then says
// what to do; nothing is launched.
func TestNoUsersBrowserSaysWhatToDo(t *testing.T) {
	home := t.TempDir()
	s := startServe(t, []string{"HOME=" + home}, "--attach", "--browser", "chromium", "--state-dir", t.TempDir(), "--launch-timeout", "2s")
	start := time.Now()
	code, body, _ := actortest.HTTPDo(t, http.MethodGet, s.endpoint+"/json/version", "")
	took := time.Since(start)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "chrome://inspect/#remote-debugging") ||
		!strings.Contains(body, filepath.Join(home, ".config", "chromium")) {
		t.Fatalf("no browser: %d %q", code, body)
	}
	if took < 2*time.Second || took > 10*time.Second {
		t.Errorf("answered after %s, want the 2 s time-out", took)
	}
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("cdpvisor launched %v", b)
	}
}

// connectionsTo counts pid's established TCP connections to port on loopback.
func connectionsTo(t *testing.T, pid, port int) int {
	t.Helper()
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "01" { // 01: ESTABLISHED
				continue
			}
			if _, remote, _ := strings.Cut(f[2], ":"); remote == fmt.Sprintf("%04X", port) {
				inodes[f[9]] = true
			}
		}
	}
	n := 0
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		link, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); ok && inodes[strings.TrimSuffix(inode, "]")] {
			n++
		}
	}
	return n
}

// Worlds on the user's browser: each agent's world walls it from the
// other's and from the user's own tab; across the browser closed and
// started again by the user, both go on; nothing is launched or stopped.
func TestWorldsOnTheUsersBrowser(t *testing.T) {
	u := startUsersChromium(t, t.TempDir())
	s := serveAttached(t, u)
	client := actortest.StartLineScript(t, 2*time.Minute, "worlds_walled.mjs", s.endpoint)
	for text, ok := client.Next(); ok; text, ok = client.Next() {
		if strings.Contains(text, `"ok":true`) {
			break
		}
		switch {
		case strings.Contains(text, `"ready":"kill"`):
			u.stop(t)
			u = startUsersChromium(t, u.home)
		case strings.Contains(text, `"ready":"close"`):
		default:
			t.Fatalf("unexpected output %q", text)
		}
		client.Go()
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	if !actortest.Alive(u.cmd.Process.Pid) {
		t.Fatal("a world's Browser.close stopped the user's browser")
	}
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("cdpvisor launched %v", b)
	}
}

// A client connected while the user closes the browser stays connected:
// its request waits for the time-out, fails saying what to do, and the same
// connection works once the user starts the browser again.
func TestAClientOfTheUsersBrowserWaitsForItToComeBack(t *testing.T) {
	u := startUsersChromium(t, t.TempDir())
	s := serveAttached(t, u, "--launch-timeout", "2s")
	var version struct{ WebSocketDebuggerURL string }
	getJSON(t, s.endpoint+"/json/version", &version)
	cl := actortest.DialCDP(t, version.WebSocketDebuggerURL)
	cl.Call(1, "Browser.getVersion", "", "") // fails the test on an error
	u.stop(t)
	start := time.Now()
	cl.Send(2, "Browser.getVersion", "", "")
	m, _ := cl.Answer(2)
	if took := time.Since(start); len(m.Error) == 0 || !strings.Contains(string(m.Raw), "chrome://inspect/#remote-debugging") || took < 2*time.Second {
		t.Fatalf("with the browser closed: %s after %s, want an error saying what to do after the 2 s time-out", m.Raw, took)
	}
	u = startUsersChromium(t, u.home)
	cl.Call(3, "Browser.getVersion", "", "") // the same connection, the browser back
	if b := s.browsers(); len(b) != 0 {
		t.Fatalf("cdpvisor launched %v", b)
	}
}

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

func startUsersChromium(t *testing.T, home string, extra ...string) *usersChromium {
	t.Helper()
	u := &usersChromium{home: home, profile: filepath.Join(home, ".config", "chromium")}
	_ = os.Remove(filepath.Join(u.profile, "DevToolsActivePort")) // the last run's
	args := append([]string{"--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--remote-debugging-port=0", "--user-data-dir=" + u.profile}, extra...)
	u.cmd = exec.Command(actortest.Chromium(t), append(args, "about:blank")...)
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

// connectionsTo counts pid's established TCP connections to port.
func connectionsTo(t *testing.T, pid, port int) int {
	t.Helper()
	established := tcpSockets(t, "01")
	n := 0
	for _, inode := range socketsOf(pid) {
		if ports, ok := established[inode]; ok && ports[1] == port {
			n++
		}
	}
	return n
}

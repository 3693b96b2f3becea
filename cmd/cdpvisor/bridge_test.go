package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/transport"
)

// installedBridge makes DIR/chrome, the bridge as tools see a browser.
func installedBridge(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out, stderr, code := runCLI(t, nil, "bridge", "--install", dir)
	link := filepath.Join(dir, "chrome")
	// On stdout alone, as the help's `--executablePath="$(cdpvisor bridge --install DIR)"` takes it.
	if code != 0 || out != link+"\n" || stderr != "" {
		t.Fatalf("bridge --install: %d %q %q", code, out, stderr)
	}
	return link
}

// realBrowsers lists browser processes (not bridges, not helpers) on profile.
func realBrowsers(t *testing.T, profile string) []proc.ProcInfo {
	t.Helper()
	all, err := proc.BrowsersUnder(profile)
	if err != nil {
		t.Fatal(err)
	}
	var out []proc.ProcInfo
	for _, p := range all { // not the bridges (this test's binary) nor the tools (node)
		if base := filepath.Base(p.Exe); (base == "chromium" || base == "chrome") && p.Exe != binary {
			out = append(out, p)
		}
	}
	return out
}

func TestBridgeUsage(t *testing.T) {
	_, stderr, code := runCLI(t, nil, "bridge", "--headless")
	if code != 1 || !strings.Contains(stderr, "--remote-debugging-pipe nor --remote-debugging-port") {
		t.Fatalf("no mode: %d %q", code, stderr)
	}
	_, stderr, code = runCLI(t, nil, "bridge", "--remote-debugging-pipe")
	if code != 1 || !strings.Contains(stderr, "descriptors 3 and 4") {
		t.Fatalf("pipe without fds: %d %q", code, stderr)
	}
	actortest.Chromium(t)
	link := installedBridge(t)
	out, err := exec.Command(link, "--version").Output()
	if err != nil || !strings.Contains(string(out), "156") && !regexp.MustCompile(`\d+\.\d+`).Match(out) {
		t.Fatalf("chrome --version through the symlink: %q %v", out, err)
	}
}

// Real clients launch "Chrome" through the bridge: Puppeteer over the pipe
// and over a port, Playwright over the pipe.
func TestBridgeLaunchedByRealClients(t *testing.T) {
	actortest.Chromium(t)
	link := installedBridge(t)
	for _, mode := range []string{"puppeteer-pipe", "puppeteer-ws", "playwright"} {
		t.Run(mode, func(t *testing.T) {
			out, err := actortest.NodeScript(t, 90*time.Second, "bridge_launch.mjs", mode, link)
			if err != nil || !strings.Contains(out, `"result":2`) {
				t.Fatalf("%s: %v %s", mode, err, out)
			}
		})
	}
}

// @playwright/mcp and chrome-devtools-mcp, both given the bridge as their
// browser and one profile, navigate and snapshot on ONE browser.
func TestBridgeSharedByTwoMCPs(t *testing.T) {
	actortest.Chromium(t)
	link := installedBridge(t)
	profile, work := t.TempDir(), t.TempDir()
	client := actortest.StartLineScript(t, 150*time.Second, "bridge_share.mjs", link, profile, work)
	if line, _ := client.Next(); !strings.Contains(line, "ready") {
		t.Fatalf("no ready line: %q", line)
	}
	if b := realBrowsers(t, profile); len(b) != 1 {
		t.Fatalf("browsers on the profile: %+v, want one shared", b)
	}
	client.Go()
	if line, _ := client.Next(); !strings.Contains(line, `"ok":true`) {
		t.Fatalf("no final line: %q", line)
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	waitNoBrowsers(t, profile)
}

func waitNoBrowsers(t *testing.T, profile string) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); len(realBrowsers(t, profile)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("a headless browser launched by the bridge outlived it: %+v", realBrowsers(t, profile))
		}
	}
}

// bridgeProcess is a bridge started by the test itself.
type bridgeProcess struct {
	cmd    *exec.Cmd
	stderr *actortest.SyncBuffer
}

func (b *bridgeProcess) browser(t *testing.T) int {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if kids := browserChildren(b.cmd.Process.Pid); len(kids) == 1 {
			return kids[0]
		}
		if time.Now().After(end) {
			t.Fatalf("the bridge has no browser: %v\n%s", browserChildren(b.cmd.Process.Pid), b.stderr.String())
		}
	}
}

// In port mode, a browser killed by hand is relaunched on the next request
// and the client's connection survives.
func TestBridgeWSModeRecoversAfterKill(t *testing.T) {
	actortest.Chromium(t)
	b := &bridgeProcess{stderr: &actortest.SyncBuffer{}}
	b.cmd = exec.Command(binary, "bridge", "--remote-debugging-port=0", "--headless=new")
	pr, pw := io.Pipe()
	b.cmd.Stderr = io.MultiWriter(b.stderr, pw)
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.cmd.Process.Signal(syscall.SIGTERM); _ = b.cmd.Wait() }()
	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		re := regexp.MustCompile(`^DevTools listening on ws://(127\.0\.0\.1:\d+)/devtools/browser/\S+$`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				endpoint <- "http://" + m[1]
			}
		}
	}()
	var ep string
	select {
	case ep = <-endpoint:
	case <-time.After(20 * time.Second):
		t.Fatalf("no DevTools line:\n%s", b.stderr.String())
	}
	client := actortest.StartLineScript(t, 90*time.Second, "puppeteer_survive.mjs", ep, "2")
	for line, ok := client.Next(); ok && !strings.Contains(line, `"ok":true`); line, ok = client.Next() {
		pid := b.browser(t)
		_ = syscall.Kill(pid, syscall.SIGKILL)
		waitGone(t, pid)
		client.Go()
	}
	if err := client.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, b.stderr.String())
	}
}

// In pipe mode, a browser killed by hand closes the tool's pipe, and the
// tool's own relaunch (through the bridge again) works.
func TestBridgePipeModeClosesAndTheToolRelaunches(t *testing.T) {
	actortest.Chromium(t)
	link := installedBridge(t)
	client := actortest.StartLineScript(t, 90*time.Second, "bridge_relaunch.mjs", link)
	if line, _ := client.Next(); !strings.Contains(line, "ready") {
		t.Fatalf("no ready line: %q", line)
	}
	var bridges []int
	for _, pid := range actortest.Children(client.Cmd.Process.Pid) {
		if strings.HasPrefix(actortest.Cmdline(pid), link) {
			bridges = append(bridges, pid)
		}
	}
	if len(bridges) != 1 {
		t.Fatalf("bridges %v, want one", bridges)
	}
	browsers := browserChildren(bridges[0])
	if len(browsers) != 1 {
		t.Fatalf("browsers %v, want one", browsers)
	}
	_ = syscall.Kill(browsers[0], syscall.SIGKILL)
	client.Go()
	if line, _ := client.Next(); !strings.Contains(line, `"disconnected":true`) {
		t.Fatalf("final line %q", line)
	}
	if err := client.Wait(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, bridges[0])
}

// kill -9 of a bridge in pipe+headless mode: its watchdog ends the browser
// and removes the temporary profile within 2 s.
func TestBridgeKilledInPipeHeadlessModeLeavesNothing(t *testing.T) {
	chromium := actortest.Chromium(t)
	toBridgeR, toBridgeW, _ := os.Pipe()
	fromBridgeR, fromBridgeW, _ := os.Pipe()
	defer toBridgeW.Close()
	defer fromBridgeR.Close()
	b := &bridgeProcess{stderr: &actortest.SyncBuffer{}}
	b.cmd = exec.Command(binary, "bridge", "--remote-debugging-pipe", "--headless=new", "--browser="+chromium)
	b.cmd.ExtraFiles = []*os.File{toBridgeR, fromBridgeW}
	b.cmd.Stderr = b.stderr
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toBridgeR.Close()
	fromBridgeW.Close()
	exited := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(exited) }()
	defer func() { _ = b.cmd.Process.Kill(); <-exited }()
	pipe := transport.NewPipeConn(fromBridgeR, toBridgeW, nil)
	if err := pipe.Write([]byte(`{"id":1,"method":"Browser.getVersion"}`), false); err != nil {
		t.Fatal(err)
	}
	m := transport.NewMessage()
	if err := pipe.Read(m); err != nil || !strings.Contains(string(m.B), `"product"`) {
		t.Fatalf("answer over the pipe: %q %v\n%s", m.B, err, b.stderr.String())
	}
	browser := b.browser(t)
	var version map[string]any
	_ = json.Unmarshal(m.B, &version)
	_ = b.cmd.Process.Kill()
	<-exited
	waitClean(t, browser, b.cmd.Process.Pid, t.TempDir())
}

// With --coordinator the bridge relays to a running coordinator instead of
// a browser of its own.
func TestBridgeUsesARunningCoordinator(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	stateDir := t.TempDir()
	startServe(t, nil, "--browser", fake, "--state-dir", stateDir)
	toBridgeR, toBridgeW, _ := os.Pipe()
	fromBridgeR, fromBridgeW, _ := os.Pipe()
	defer toBridgeW.Close()
	defer fromBridgeR.Close()
	b := exec.Command(binary, "bridge", "--remote-debugging-pipe", "--headless=new")
	b.Env = append(os.Environ(), "CDPVISOR_COORDINATOR=auto", "CDPVISOR_STATE_DIR="+stateDir)
	b.ExtraFiles = []*os.File{toBridgeR, fromBridgeW}
	var stderr actortest.SyncBuffer
	b.Stderr = &stderr
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	toBridgeR.Close()
	fromBridgeW.Close()
	defer func() { _ = b.Process.Kill(); _ = b.Wait() }()
	pipe := transport.NewPipeConn(fromBridgeR, toBridgeW, nil)
	_ = pipe.Write([]byte(`{"id":1,"method":"Browser.getVersion"}`), false)
	m := transport.NewMessage()
	if err := pipe.Read(m); err != nil || !strings.Contains(string(m.B), "FakeChrome") {
		t.Fatalf("answer through the coordinator: %q %v\n%s", m.B, err, stderr.String())
	}
	if kids := browserChildren(b.Process.Pid); len(kids) != 0 {
		t.Fatalf("the bridge launched a browser of its own: %v", kids)
	}
}

// One profile, one mode: a headless run on a profile a headed browser
// holds is refused with a reason.
func TestBridgeRefusesAnotherModeOnARunningProfile(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	profile := t.TempDir()
	headed := exec.Command(fake, "--remote-debugging-port=0", "--user-data-dir="+profile)
	if err := headed.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = headed.Process.Kill(); _ = headed.Wait() }()
	waitFile(t, filepath.Join(profile, "DevToolsActivePort"))
	_, stderr, code := runCLI(t, nil, "bridge", "--remote-debugging-port=0", "--headless=new", "--user-data-dir="+profile, "--browser="+fake)
	if code != 1 || !strings.Contains(stderr, "headed browser") || !strings.Contains(stderr, "asks for headless") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
}

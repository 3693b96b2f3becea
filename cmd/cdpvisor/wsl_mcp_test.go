package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// startWSLMCP starts `cdpvisor mcp args…` inside the fake WSL.
func startWSLMCP(t *testing.T, win *actortest.FakeWindows, args ...string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{stderr: &actortest.SyncBuffer{}}
	p.cmd = exec.Command(binary, append([]string{"mcp"}, args...)...)
	p.cmd.Env = append(os.Environ(), win.Env()...)
	p.cmd.Stderr = p.stderr
	p.stdin, _ = p.cmd.StdinPipe()
	stdout, _ := p.cmd.StdoutPipe()
	p.lines = bufio.NewScanner(stdout)
	p.lines.Buffer(make([]byte, 1<<20), 1<<20)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(exited) }()
	p.done = exited
	t.Cleanup(func() {
		// EOF, as its host would end it: it stops its Windows browsers
		// while the fake Windows side still exists.
		p.stdin.Close()
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-exited
		}
	})
	p.request(t, 1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	fmt.Fprintln(p.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// toolJSON calls a tool and returns its structured content.
func (p *mcpProcess) toolJSON(t *testing.T, id int, name, args string) map[string]any {
	t.Helper()
	m := p.request(t, id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] == true {
		t.Fatalf("%s %s: %v\nstderr:\n%s", name, args, m, p.stderr.String())
	}
	sc, _ := res["structuredContent"].(map[string]any)
	return sc
}

// browser_instance new inside WSL resolves a browser type as serve does:
// with --windows the Windows Chrome, though a Linux one is installed too.
func TestWSLMCPNewInstanceIsAWindowsBrowser(t *testing.T) {
	fake := actortest.FakeBrowser(t)
	win := actortest.NewFakeWindows(t, fake)
	linuxChrome := filepath.Join(win.Root, "usr", "bin", "google-chrome")
	if err := os.MkdirAll(filepath.Dir(linuxChrome), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fake, linuxChrome); err != nil {
		t.Fatal(err)
	}
	p := startWSLMCP(t, win, "--windows", "--state-dir", t.TempDir())
	created := p.toolJSON(t, 2, "browser_instance", `{"action":"new","browser":"chrome"}`)
	endpoint, _ := created["endpoint"].(string)
	if endpoint == "" {
		t.Fatalf("no endpoint in %v", created)
	}
	var version struct{ Browser string }
	getJSON(t, endpoint+"/json/version", &version)
	onlyWindowsBrowser(t, win)
	status, _ := json.Marshal(p.toolJSON(t, 3, "coordinator_status", `{}`))
	if !strings.Contains(string(status), "chrome.exe") {
		t.Errorf("coordinator_status of the new instance: %s", status)
	}
	// The launch message names the default instance's Windows browser by
	// its Windows pid.
	m := p.request(t, 4, "tools/call", `{"name":"coordinator_launch_browser","arguments":{}}`)
	text, _ := json.Marshal(m["result"])
	if !strings.Contains(string(text), "Windows pid ") || !strings.Contains(string(text), `windows_pid`) {
		t.Errorf("coordinator_launch_browser does not name the Windows pid: %s", text)
	}
	p.stdin.Close() // mcp exits on stdin EOF, stopping its browsers
	<-p.done
	nothingLeftOnWindows(t, win)

	// Without --windows, the Linux install of the type comes first.
	q := startWSLMCP(t, win, "--state-dir", t.TempDir())
	created = q.toolJSON(t, 2, "browser_instance", `{"action":"new","browser":"chrome"}`)
	endpoint, _ = created["endpoint"].(string)
	getJSON(t, endpoint+"/json/version", &version)
	if r := win.Running(); len(r) != 0 {
		t.Errorf("without --windows, a Windows browser runs: %+v", r)
	}
	status, _ = json.Marshal(q.toolJSON(t, 3, "coordinator_status", `{}`))
	if !strings.Contains(string(status), linuxChrome) {
		t.Errorf("coordinator_status of the new instance without --windows: %s", status)
	}
}

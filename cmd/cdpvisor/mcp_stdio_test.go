package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// The TypeScript SDK is a strict client: a single non-protocol line on
// stdout fails it. It drives every tool of `cdpvisor mcp`.
func TestMCPOverStdioWithTheTypeScriptSDK(t *testing.T) {
	chrometest.ClientsDir(t)
	stateDir := t.TempDir()
	calls := []struct {
		tool, args string
		isError    bool
	}{
		{"coordinator_list_browsers", `{}`, false},
		{"coordinator_status", `{}`, false},
		{"coordinator_launch_browser", `{"headless":true}`, false},
		{"coordinator_restart_browser", `{}`, true}, // the thrash guard
		{"coordinator_restart_browser", `{"force":true}`, false},
		{"browser_instance", `{"action":"new"}`, false},
		{"browser_instance", `{"action":"list"}`, false},
		{"browser_instance", `{"action":"get","id":"nope"}`, true},
		{"coordinator_stop_browser", `{}`, false},
		{"coordinator_status", `{"instance":"nope"}`, false}, // status takes no instance: ignored
	}
	args := []string{}
	for _, c := range calls {
		args = append(args, "--call", c.tool+"="+c.args)
	}
	args = append(args, "--", binary, "mcp", "--browser", chrometest.FakeBrowser(t), "--state-dir", stateDir, "--log-level", "debug")
	out, err := chrometest.NodeScript(t, 90*time.Second, "mcp_stdio_check.mjs", args...)
	if err != nil {
		t.Fatalf("strict client: %v: %s", err, out)
	}
	var res struct {
		OK    bool
		Tools []string
		Calls []struct {
			Name    string
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("client output %q: %v", out, err)
	}
	if len(res.Tools) != 6 {
		t.Fatalf("tools %v, want 6", res.Tools)
	}
	if len(res.Calls) != len(calls) {
		t.Fatalf("%d calls answered, want %d", len(res.Calls), len(calls))
	}
	for i, c := range calls {
		if res.Calls[i].IsError != c.isError {
			t.Errorf("%s %s: isError %v, want %v: %s", c.tool, c.args, res.Calls[i].IsError, c.isError, res.Calls[i].Text)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Errorf("state files left after stdin closed: %v", left)
	}
}

// mcpProcess is `cdpvisor mcp` driven by hand over pipes.
type mcpProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr *chrometest.SyncBuffer
}

func startMCP(t *testing.T, stateDir string) *mcpProcess {
	t.Helper()
	return startMCPWith(t, stateDir, chrometest.FakeBrowser(t))
}

func startMCPWith(t *testing.T, stateDir, browser string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{stderr: &chrometest.SyncBuffer{}}
	p.cmd = exec.Command(binary, "mcp", "--browser", browser, "--state-dir", stateDir)
	p.cmd.Stderr = p.stderr
	p.stdin, _ = p.cmd.StdinPipe()
	stdout, _ := p.cmd.StdoutPipe()
	p.lines = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	})
	p.request(t, 1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	fmt.Fprintln(p.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// request sends a JSON-RPC request and returns its answer; every stdout
// line must be JSON-RPC.
func (p *mcpProcess) request(t *testing.T, id int, method, params string) map[string]any {
	t.Helper()
	fmt.Fprintf(p.stdin, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	for p.lines.Scan() {
		var m map[string]any
		if err := json.Unmarshal(p.lines.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %q", p.lines.Text())
		}
		if m["id"] == float64(id) {
			return m
		}
	}
	t.Fatalf("no answer to %s; stderr:\n%s", method, p.stderr.String())
	return nil
}

// cdpvisor mcp stops its browser and removes its state file on stdin EOF
// and on SIGINT, SIGTERM and SIGHUP.
func TestMCPExitsCleanly(t *testing.T) {
	for _, how := range []string{"eof", "SIGINT", "SIGTERM", "SIGHUP"} {
		t.Run(how, func(t *testing.T) {
			stateDir := t.TempDir()
			p := startMCP(t, stateDir)
			p.request(t, 2, "tools/call", `{"name":"coordinator_launch_browser","arguments":{}}`)
			browsers := browserChildren(p.cmd.Process.Pid)
			if len(browsers) != 1 {
				t.Fatalf("browsers %v, want one", browsers)
			}
			switch how {
			case "eof":
				p.stdin.Close()
			case "SIGINT":
				_ = p.cmd.Process.Signal(os.Interrupt)
			case "SIGTERM":
				_ = p.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGHUP":
				_ = p.cmd.Process.Signal(syscall.SIGHUP)
			}
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("exit: %v; stderr:\n%s", err, p.stderr.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatal("mcp did not exit")
			}
			if chrometest.Alive(browsers[0]) {
				t.Errorf("browser %d left running", browsers[0])
			}
			if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
				t.Errorf("state files left: %v", left)
			}
			if strings.Contains(p.stderr.String(), "panic") {
				t.Errorf("stderr:\n%s", p.stderr.String())
			}
		})
	}
}

// The strict client does catch pollution: the same server behind one stray
// stdout line fails it.
func TestStrictClientCatchesStdoutPollution(t *testing.T) {
	chrometest.ClientsDir(t)
	server := fmt.Sprintf("echo 'starting…'; exec %s mcp --browser %s --state-dir %s", binary, chrometest.FakeBrowser(t), t.TempDir())
	out, err := chrometest.NodeScript(t, 60*time.Second, "mcp_stdio_check.mjs", "--call", "coordinator_status={}", "--", "sh", "-c", server)
	if err == nil {
		t.Fatalf("a polluted stdout passed the strict client: %s", out)
	}
}

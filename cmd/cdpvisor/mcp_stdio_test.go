package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// The TypeScript SDK is a strict client: a single non-protocol line on
// stdout fails it. It lists the tools (their annotations and schemas as the
// SDK parsed them) and drives every tool of `cdpvisor mcp` with good and
// bad arguments, instances named by id and by port, as strings and numbers.
func TestMCPOverStdioWithTheTypeScriptSDK(t *testing.T) {
	actortest.ClientsDir(t)
	stateDir := t.TempDir()
	port, other := freePort(t), freePort(t)
	calls := []struct {
		tool, args string
		isError    bool
		says       string // in the text
	}{
		{"coordinator_list_browsers", `{}`, false, ""},
		{"coordinator_list_browsers", `{"all":true}`, true, `unknown argument "all": coordinator_list_browsers takes no arguments`},
		{"coordinator_status", `{}`, false, "coordinator pid"},
		{"coordinator_launch_browser", `{"headless":true}`, false, "launched"},
		{"coordinator_launch_browser", `{"headless":"yes"}`, true, `argument "headless" must be a boolean`},
		{"coordinator_restart_browser", `{}`, true, "force"}, // the thrash guard
		{"coordinator_restart_browser", `{"force":true}`, false, "restarted"},
		{"coordinator_restart_browser", fmt.Sprintf(`{"force":true,"instance":%d}`, port), false, "restarted"},
		{"coordinator_restart_browser", `{"instance":"inst_nope"}`, true, "pass instance as one of those ids or ports"},
		{"browser_instance", fmt.Sprintf(`{"action":"new","port":%d}`, port), true, fmt.Sprintf("port %d is the endpoint of", port)},
		{"browser_instance", fmt.Sprintf(`{"action":"new","port":%d}`, other), false, "created"},
		{"browser_instance", `{"action":"new"}`, true, "already 2 instances are open, the maximum"},
		{"browser_instance", `{"action":"list"}`, false, "(default)"},
		{"browser_instance", fmt.Sprintf(`{"action":"get","id":%d}`, other), false, "inst_"},
		{"browser_instance", fmt.Sprintf(`{"action":"get","id":"%d"}`, other), false, "inst_"},
		{"browser_instance", `{"action":"get","id":"nope"}`, true, "unknown instance"},
		{"browser_instance", `{"action":"fly"}`, true, "new, list, get or close"},
		{"browser_instance", `{"action":"list","colour":"red"}`, true, "the accepted arguments are action, id, type, browser, headless, port and download_dir"},
		{"coordinator_launch_browser", fmt.Sprintf(`{"instance":"%d"}`, other), false, "launched"},
		{"coordinator_stop_browser", fmt.Sprintf(`{"instance":%d}`, other), false, "stopped"},
		{"coordinator_stop_browser", `{"instance":true}`, true, `argument "instance" must be an instance id`},
		{"browser_instance", fmt.Sprintf(`{"action":"close","id":%d}`, port), true, "default instance"},
		{"browser_instance", fmt.Sprintf(`{"action":"close","id":%d}`, other), false, "closed"},
		{"coordinator_stop_browser", `{}`, false, "stopped"},
		{"coordinator_status", `{"instance":"nope"}`, true, "takes no arguments"}, // status takes no arguments: refused
		{"browser_context", `{"action":"list"}`, false, "no worlds open or kept"},
		{"browser_context", fmt.Sprintf(`{"action":"close","name":"agent-1","instance":%d}`, port), true, `unknown world "agent-1"`},
		{"browser_context", `{"action":"close","name":"a/b"}`, true, "invalid world name"},
		{"download_list", `{"context":"agent-1"}`, false, "[]"},
	}
	args := []string{}
	for _, c := range calls {
		args = append(args, "--call", c.tool+"="+c.args)
	}
	args = append(args, "--", binary, "mcp", "--browser", actortest.FakeBrowser(t), "--state-dir", stateDir, "--log-level", "debug",
		"--port", fmt.Sprint(port), "--max-instances", "2")
	out, err := actortest.NodeScript(t, 90*time.Second, "mcp_stdio_check.mjs", args...)
	if err != nil {
		t.Fatalf("strict client: %v: %s", err, out)
	}
	var res struct {
		OK       bool
		Tools    []string
		ToolDefs []struct {
			Name        string
			Title       string
			Annotations map[string]any
			InputSchema map[string]any
		}
		ToolProblems []string
		Calls        []struct {
			Name              string
			IsError           bool
			Text              string
			Texts             []string
			StructuredContent map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
		t.Fatalf("client output %q: %v", out, err)
	}
	if len(res.Tools) != 10 {
		t.Fatalf("tools %v, want 10", res.Tools)
	}
	for _, p := range res.ToolProblems {
		t.Errorf("tools/list: %s", p)
	}
	hints := map[string]string{ // readOnly, destructive, idempotent, openWorld
		"coordinator_list_browsers": "true false true false", "coordinator_status": "true false true false",
		"coordinator_launch_browser": "false false false false", "coordinator_stop_browser": "false true true false",
		"coordinator_restart_browser": "false true false false", "browser_instance": "false true false false",
		"download_list": "true false true false", "download_wait": "true false false false",
		"browser_context": "false true false false", "request_human": "false false false false",
	}
	for _, d := range res.ToolDefs {
		a := d.Annotations
		if got := fmt.Sprint(a["readOnlyHint"], a["destructiveHint"], a["idempotentHint"], a["openWorldHint"]); got != hints[d.Name] {
			t.Errorf("%s: hints (readOnly destructive idempotent openWorld) %s, want %s", d.Name, got, hints[d.Name])
		}
		if d.Title == "" {
			t.Errorf("%s: no title", d.Name)
		}
		props, _ := d.InputSchema["properties"].(map[string]any)
		for _, ref := range []string{"id", "instance"} {
			if d.Name == "download_wait" && ref == "id" {
				continue // a download's id, not an instance's
			}
			if p, ok := props[ref].(map[string]any); ok && fmt.Sprint(p["type"]) != "[string integer]" {
				t.Errorf("%s.%s: type %v", d.Name, ref, p["type"])
			}
		}
	}
	if len(res.Calls) != len(calls) {
		t.Fatalf("%d calls answered, want %d", len(res.Calls), len(calls))
	}
	var created string
	for i, c := range calls {
		got := res.Calls[i]
		if got.IsError != c.isError {
			t.Errorf("%s %s: isError %v, want %v: %s", c.tool, c.args, got.IsError, c.isError, got.Text)
		}
		if !strings.Contains(got.Text, c.says) {
			t.Errorf("%s %s: %q does not say %q", c.tool, c.args, got.Text, c.says)
		}
		if got.IsError {
			if !strings.HasPrefix(got.Text, c.tool) || strings.Contains(got.Text, "--") {
				t.Errorf("%s %s: the error %q should name its tool and no flag", c.tool, c.args, got.Text)
			}
			continue
		}
		var fromText map[string]any
		if got.StructuredContent == nil || len(got.Texts) != 2 || json.Unmarshal([]byte(got.Texts[1]), &fromText) != nil ||
			fmt.Sprint(fromText) != fmt.Sprint(got.StructuredContent) {
			t.Errorf("%s %s: structured content %v and its JSON text %q", c.tool, c.args, got.StructuredContent, got.Texts)
		}
		switch {
		case c.tool == "browser_instance" && strings.Contains(c.args, `"new"`):
			created, _ = got.StructuredContent["id"].(string)
		case c.tool == "browser_instance" && strings.Contains(c.args, `"get"`):
			if got.StructuredContent["id"] != created || got.StructuredContent["port"] != float64(other) {
				t.Errorf("%s %s: got %v, want %s on port %d", c.tool, c.args, got.StructuredContent, created, other)
			}
		case c.tool == "coordinator_status":
			if got.StructuredContent["state_file"] == nil || got.StructuredContent["live"] != true {
				t.Errorf("status %v", got.StructuredContent)
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Errorf("state files left after stdin closed: %v", left)
	}
}

// freePort is a port nothing listens on (for now).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// mcpProcess is `cdpvisor mcp` driven by hand over pipes.
type mcpProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	stderr *actortest.SyncBuffer
	done   chan struct{} // closed when it has exited (startWSLMCP's)
}

func startMCP(t *testing.T, stateDir string) *mcpProcess {
	t.Helper()
	return startMCPWith(t, stateDir, actortest.FakeBrowser(t))
}

func startMCPWith(t *testing.T, stateDir, browser string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{stderr: &actortest.SyncBuffer{}}
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
			if actortest.Alive(browsers[0]) {
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
	actortest.ClientsDir(t)
	server := fmt.Sprintf("echo 'starting…'; exec %s mcp --browser %s --state-dir %s", binary, actortest.FakeBrowser(t), t.TempDir())
	out, err := actortest.NodeScript(t, 60*time.Second, "mcp_stdio_check.mjs", "--call", "coordinator_status={}", "--", "sh", "-c", server)
	if err == nil {
		t.Fatalf("a polluted stdout passed the strict client: %s", out)
	}
}

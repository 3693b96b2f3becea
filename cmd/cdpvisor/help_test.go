package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help/ from the commands' --help")

// Each command's --help, compared with testdata/help/<command>.txt (go test
// -run TestHelp -update-help rewrites them after a deliberate change).
func TestHelpOfEachCommand(t *testing.T) {
	dir := filepath.Join(actortest.RepoRoot(), "testdata", "help")
	for _, args := range [][]string{
		{"--help"}, {"serve", "--help"}, {"mcp", "--help"}, {"wrap", "--help"}, {"bridge", "--help"},
		{"browsers", "--help"}, {"install", "--help"}, {"status", "--help"}, {"world", "--help"},
	} {
		name := strings.TrimPrefix(args[0], "--")
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, []string{"XDG_RUNTIME_DIR="}, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
			}
			golden := filepath.Join(dir, name+".txt")
			if *updateHelp {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-help to create it)", err)
			}
			if stdout != string(want) {
				t.Fatalf("%v --help differs from %s:\n%s", args, golden, stdout)
			}
			if name != "help" && name != "bridge" {
				for _, want := range []string{"Usage:", "Examples:", "env CDPVISOR_"} {
					if !strings.Contains(stdout, want) {
						t.Errorf("%v --help lacks %q", args, want)
					}
				}
				if regexp.MustCompile(`(?m)^\s+-[a-z]`).MatchString(stdout) {
					t.Errorf("%v --help shows a single-dash flag", args)
				}
			}
		})
	}
}

func TestVersionAndUnknownCommands(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-v"} {
		out, _, code := runCLI(t, nil, arg)
		if code != 0 || !regexp.MustCompile(`^cdpvisor \S+ \(commit \S+, go1\.\S+ \S+/\S+\)\n$`).MatchString(out) {
			t.Fatalf("%s: exit %d, %q", arg, code, out)
		}
	}
	_, stderr, code := runCLI(t, nil, "sevre")
	if code != 2 || !strings.Contains(stderr, `did you mean "serve"?`) {
		t.Fatalf("a misspelt command: exit %d, %q", code, stderr)
	}
	_, stderr, code = runCLI(t, nil, "serve", "--prot", "3")
	if code != 2 || !strings.Contains(stderr, "unknown flag --prot (did you mean --port?)") || !strings.Contains(stderr, "'cdpvisor serve' takes --allow-host, ") {
		t.Fatalf("a misspelt flag: exit %d, %q", code, stderr)
	}
	// After a subcommand's verb too, the flag is named, not the verb.
	for _, args := range [][]string{{"world", "open", "rec", "--bogus"}, {"world", "--bogus", "open", "rec"}, {"world", "open", "--state", "f", "rec", "--bogus"}} {
		_, stderr, code = runCLI(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, "unknown flag --bogus; 'cdpvisor world' takes ") || !strings.Contains(stderr, "--state, ") || strings.Contains(stderr, "unexpected argument") {
			t.Errorf("%q: exit %d, %q; want the unknown flag and the flags that exist", args, code, stderr)
		}
	}
	for env, want := range map[string]string{
		"CDPVISOR_PORT=abc":           "CDPVISOR_PORT=abc: not a port",
		"CDPVISOR_HEADED=maybe":       "CDPVISOR_HEADED=maybe: not true or false",
		"CDPVISOR_BROWSER_ARG='--a b": "CDPVISOR_BROWSER_ARG='--a b: unclosed ' quote",
	} {
		_, stderr, code := runCLI(t, []string{env}, "serve", "--browser", os.Args[0])
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %q; want %q", env, code, stderr, want)
		}
	}
	_, stderr, code = runCLI(t, nil, "serve", "--browser", os.Args[0], "--browser-arg=--remote-debugging-port=9333")
	if code != 2 || !strings.Contains(stderr, "--port") {
		t.Fatalf("a browser argument cdpvisor owns: exit %d, %q", code, stderr)
	}
}

func TestBrowserArgEnvKeepsArgumentsWithSpaces(t *testing.T) {
	for in, want := range map[string][]string{
		`--lang=fr "--user-agent=My Agent"`:  {"--lang=fr", "--user-agent=My Agent"},
		`--a='x y' --b=c\ d`:                 {"--a=x y", "--b=c d"},
		"--user-agent=My Agent\n--lang=fr\n": {"--user-agent=My Agent", "--lang=fr"},
		"":                                   nil,
	} {
		got, err := splitEnvList(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("splitEnvList(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Logs on stderr that is not a terminal carry no escape sequences, and
// their times are RFC 3339 with milliseconds; a signal is logged with what
// happens next.
func TestLogsForPipesAndSignals(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir())
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	logs := s.stderr.String()
	if strings.Contains(logs, "\x1b[") {
		t.Fatalf("escape sequences in logs to a pipe:\n%q", logs)
	}
	if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d) INF serving`).MatchString(logs) {
		t.Fatalf("no RFC 3339 millisecond time on the start line:\n%s", logs)
	}
	if !strings.Contains(logs, "received SIGTERM; stopping") {
		t.Fatalf("the signal was not logged:\n%s", logs)
	}
}

// JSON log lines carry numbers as numbers and no empty fields.
func TestJSONLogsHaveNoEmptyFieldsAndNumericPorts(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir(), "--log-format", "json", "--log-level", "debug")
	cl := actortest.DialCDP(t, strings.Replace(s.endpoint, "http", "ws", 1)+"/devtools/browser")
	cl.Call(1, "Browser.getVersion", "", "")
	cl.Conn.Close()
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	sawPort := false
	for _, line := range lines(s.stderr.String()) {
		if !strings.HasPrefix(line, "{") {
			continue // the fake browser's own stderr lines are logged inside JSON; nothing else is printed
		}
		var fields map[string]any
		if err := json.Unmarshal([]byte(line), &fields); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		for k, v := range fields {
			if v == "" {
				t.Errorf("empty field %q in %s", k, line)
			}
		}
		if p, ok := fields["resolvedDebugPort"]; ok {
			if _, num := p.(float64); !num {
				t.Errorf("resolvedDebugPort is not a number in %s", line)
			}
			sawPort = true
		}
	}
	if !sawPort {
		t.Fatal("no log line carried resolvedDebugPort")
	}
}

// --log-level trace logs each CDP frame's head, never its payload.
func TestTraceLevelLogsFrames(t *testing.T) {
	s := startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", t.TempDir(), "--log-format", "json", "--log-level", "trace")
	cl := actortest.DialCDP(t, strings.Replace(s.endpoint, "http", "ws", 1)+"/devtools/browser")
	cl.Call(7, "Target.createTarget", `{"url":"data:text/html,TOP-SECRET"}`, "")
	cl.Conn.Close()
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	logs := s.stderr.String()
	if !regexp.MustCompile(`"level":"trace".*"direction":"to_browser".*"id":7.*"method":"Target.createTarget"`).MatchString(logs) {
		t.Fatalf("no trace line for the frame:\n%s", logs)
	}
	if strings.Contains(logs, "TOP-SECRET") {
		t.Fatal("a payload reached the logs")
	}
}

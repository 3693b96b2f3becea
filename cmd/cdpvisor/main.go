// Command cdpvisor supervises Chromium-family browsers behind stable CDP
// endpoints for AI agents and automation tools.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/remedywords"
)

// version and commit are set at build time with
// -ldflags "-X main.version=… -X main.commit=…".
var (
	version = "0.1.0-dev"
	commit  = ""
)

const usage = `cdpvisor: supervises Chromium-family browsers behind stable CDP endpoints, for AI agents and automation.

Usage:
  cdpvisor COMMAND [flags]

Commands:
  serve      run the supervisor in the foreground behind a stable CDP endpoint (prints it on stdout)
  mcp        the same supervisor plus an MCP server on stdin/stdout, for AI hosts
  wrap       run a child MCP server against the running coordinator: cdpvisor wrap -- CMD ARGS…
  world      open, list and close the running coordinator's worlds: ENDPOINT=$(cdpvisor world open NAME)
  bridge     act as a Chrome executable for tools that launch one (pipe or port)
  browsers   list the browsers installed here (Chromium family, and Firefox)
  install    download Chrome for Testing (or Chromium) into your user cache: cdpvisor install [chrome|chromium|chrome-headless-shell]
  status     show running coordinators, their instances, browsers and ports
  version    print the version, commit and Go version (also --version, -v)

Examples:
  cdpvisor serve --port 9222
  cdpvisor mcp
  cdpvisor install chrome --channel beta
  cdpvisor wrap -- npx chrome-devtools-mcp --browserUrl={cdp_endpoint}
  cdpvisor world open alice
  cdpvisor status

Run 'cdpvisor COMMAND --help' for a command's flags.
`

var commands = []string{"serve", "mcp", "wrap", "world", "bridge", "browsers", "install", "status", "version", "help"}

// versionLine is what version, --version and -v print.
func versionLine() string {
	c := commit
	if c == "" {
		c = "unknown"
		if info, ok := debug.ReadBuildInfo(); ok {
			for _, s := range info.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					c = s.Value[:12]
				}
			}
		}
	}
	return fmt.Sprintf("cdpvisor %s (commit %s, %s %s/%s)", version, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// exitError carries an exit code out of a command; usage errors are 2.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

func main() {
	if invokedAsBrowser(os.Args) {
		// Through a symlink named like a browser: every argument is Chrome's.
		os.Exit(run(append([]string{"bridge"}, os.Args[1:]...), os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// invokedAsBrowser: the binary runs under a browser's name (a symlink made
// by bridge --install: "chrome"), not merely renamed, and not as its own
// internal watchdog.
func invokedAsBrowser(args []string) bool {
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(args[0]), ".exe"))
	if strings.HasPrefix(name, "cdpvisor") {
		return false
	}
	looksLikeBrowser := false
	for _, b := range []string{"chrome", "chromium", "msedge", "edge", "brave"} {
		if strings.Contains(name, b) {
			looksLikeBrowser = true
		}
	}
	return looksLikeBrowser && (len(args) < 2 || args[1] != "watchdog")
}

// run executes one command line; stdout is protocol only.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	// The host is read once; everything below is handed what it needs of it.
	sys := detect.HostSystem()
	var err error
	switch args[0] {
	case "serve":
		err = runServe(args[1:], sys, stdout, stderr)
	case "mcp":
		err = runMCP(args[1:], sys, os.Stdin, stdout, stderr)
	case "browsers":
		err = runBrowsers(args[1:], sys, stdout, stderr)
	case "install":
		err = runInstall(args[1:], sys, stdout, stderr)
	case "wrap":
		err = runWrap(args[1:], sys, stdout, stderr)
	case "status":
		err = runStatus(args[1:], stdout, stderr)
	case "world":
		err = runWorld(args[1:], stdout, stderr)
	case "bridge":
		err = runBridge(args[1:], sys, stdout, stderr)
	case "watchdog":
		err = runWatchdog(args[1:], sys, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, versionLine())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		msg := fmt.Sprintf("unknown command %q", args[0])
		if near := closest(strings.TrimLeft(args[0], "-"), commands); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		err = usageErr("%s; run 'cdpvisor help' for the list", msg)
	}
	if err == nil {
		return 0
	}
	// The edge of the command line: an error's fixes are said as flags.
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != errHelp {
			fmt.Fprintln(stderr, "cdpvisor:", remedy.Explain(ee.err, remedywords.CommandLine))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "cdpvisor:", remedy.Explain(err, remedywords.CommandLine))
	return 1
}

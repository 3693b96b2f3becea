// Command cdpvisor supervises Chromium-family browsers behind stable CDP
// endpoints for AI agents and automation tools.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `cdpvisor supervises Chromium-family browsers behind stable CDP endpoints.

Usage:
  cdpvisor serve [flags]          run the supervisor with its stable endpoint (prints it on stdout)
  cdpvisor mcp [flags]            the same supervisor plus an MCP server on stdin/stdout
  cdpvisor browsers [--json]      list installed Chromium-family browsers
  cdpvisor status [--json]        show running coordinators, their instances, browsers and ports
  cdpvisor wrap [flags] -- CMD …  run a child MCP server against the running coordinator
  cdpvisor bridge [chrome args…]  act as a Chrome executable for tools that launch one (pipe or port)
  cdpvisor version                print the version

Run 'cdpvisor COMMAND --help' for a command's flags.
`

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
	var err error
	switch args[0] {
	case "serve":
		err = runServe(args[1:], stdout, stderr)
	case "mcp":
		err = runMCP(args[1:], os.Stdin, stdout, stderr)
	case "browsers":
		err = runBrowsers(args[1:], stdout, stderr)
	case "wrap":
		err = runWrap(args[1:], stdout, stderr)
	case "status":
		err = runStatus(args[1:], stdout, stderr)
	case "bridge":
		err = runBridge(args[1:], stderr)
	case "watchdog":
		err = runWatchdog(args[1:], stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = usageErr("unknown command %q; run 'cdpvisor help' for the list", args[0])
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != errHelp {
			fmt.Fprintln(stderr, "cdpvisor:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "cdpvisor:", err)
	return 1
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// parseActivePort reads Chromium's <profile>/DevToolsActivePort text
// ("<port>\n/devtools/browser/<uuid>", maybe without the newline at the end).
func parseActivePort(text string) (int, error) {
	first, _, _ := strings.Cut(text, "\n")
	port, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("DevToolsActivePort: bad port %q", first)
	}
	return port, nil
}

// errNoDebugPort: cdpvisor's browser cannot be reached without cdpvisor
// (issue 27: it runs on --remote-debugging-pipe, cdpvisor its only client).
var errNoDebugPort = errors.New("cdpvisor's browser has no debugging port")

// debugProfile is the --user-data-dir of a browser command line that has
// a --remote-debugging-port; errNoDebugPort when it has none (a browser on
// --remote-debugging-pipe only).
func debugProfile(args []string) (string, error) {
	profile, port, pipe := "", false, false
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--user-data-dir="):
			profile = strings.TrimPrefix(a, "--user-data-dir=")
		case strings.HasPrefix(a, "--remote-debugging-port="):
			port = true
		case a == "--remote-debugging-pipe" || strings.HasPrefix(a, "--remote-debugging-pipe="):
			pipe = true
		}
	}
	switch {
	case !port && pipe:
		return "", fmt.Errorf("%w: it runs on --remote-debugging-pipe", errNoDebugPort)
	case !port:
		return "", fmt.Errorf("%w: no --remote-debugging-port on its command line", errNoDebugPort)
	case profile == "":
		return "", errors.New("cdpvisor's browser has no --user-data-dir")
	}
	return profile, nil
}

// controlEndpoint finds the debugging endpoint of the browser cdpvisor runs
// (asked over c, a client through cdpvisor): its pid from
// SystemInfo.getProcessInfo, its profile and port flag from its command
// line, its port from the profile's DevToolsActivePort. Only Chromium and
// /proc are read. errNoDebugPort when the browser has no port.
func controlEndpoint(ctx context.Context, c *cdpClient, timeout time.Duration) (string, error) {
	pid, err := browserPid(ctx, c, timeout)
	if err != nil {
		return "", err
	}
	args := cmdlineOf(pid)
	if len(args) == 0 {
		return "", fmt.Errorf("cannot read the command line of cdpvisor's browser (pid %d)", pid)
	}
	profile, err := debugProfile(args)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: no DevToolsActivePort in its profile", errNoDebugPort)
	}
	if err != nil {
		return "", err
	}
	port, err := parseActivePort(string(b))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port), nil
}

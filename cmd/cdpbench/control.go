package main

import (
	"context"
	"fmt"
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

// controlEndpoint finds the debugging endpoint of the browser cdpvisor runs
// (asked over c, a client through cdpvisor): its pid from
// SystemInfo.getProcessInfo, its profile from its command line, its port
// from the profile's DevToolsActivePort. Only Chromium and /proc are read.
func controlEndpoint(ctx context.Context, c *cdpClient, timeout time.Duration) (string, error) {
	pid, err := browserPid(ctx, c, timeout)
	if err != nil {
		return "", err
	}
	profile, err := profileOf(pid)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	if err != nil {
		return "", err
	}
	port, err := parseActivePort(string(b))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port), nil
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// firefoxStandIn is an executable named firefox, so serve treats it as a
// Firefox; wrap's tests never launch it.
func firefoxStandIn(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "firefox")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// echoPlaceholders prints the child's variables, then its argument with
// every placeholder filled in.
var echoPlaceholders = []string{"sh", "-c", `echo "[$CDP_PORT][$CDP_ENDPOINT][$CDP_WS][$BIDI_ENDPOINT]"; echo "$1"`,
	"sh", "p={cdp_port} e={cdp_endpoint} w={cdp_ws} b={bidi_endpoint}"}

// Against a Firefox coordinator the child gets {bidi_endpoint} and
// BIDI_ENDPOINT, the CDP ones are empty, and wrap says so on stderr when
// the command uses them.
func TestWrapAgainstAFirefoxCoordinator(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, []string{"CDP_WS=ws://elsewhere/devtools/browser"}, "--state-dir", dir, "--browser", firefoxStandIn(t), "--log-level", "warn")
	bidi := bidiOf(s.endpoint)
	out, stderr, code := runCLI(t, []string{"CDP_WS=ws://elsewhere/devtools/browser"}, append([]string{"wrap", "--state-dir", dir, "--"}, echoPlaceholders...)...)
	want := fmt.Sprintf("[][][][%s]\np= e= w= b=%s\n", bidi, bidi)
	if code != 0 || out != want {
		t.Fatalf("wrap: code %d, stdout\n%q\nwant\n%q\nstderr:\n%s", code, out, want, stderr)
	}
	for _, w := range []string{"WRN", "{cdp_port}, {cdp_endpoint}, {cdp_ws}", "runs Firefox, which speaks WebDriver BiDi, not CDP", "use {bidi_endpoint} (" + bidi + ")"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("wrap's stderr lacks %q:\n%s", w, stderr)
		}
	}
	// A command that uses {bidi_endpoint} alone is not warned about.
	out, stderr, code = runCLI(t, nil, "wrap", "--state-dir", dir, "--", "echo", "{bidi_endpoint}")
	if code != 0 || out != bidi+"\n" || stderr != "" {
		t.Fatalf("wrap with {bidi_endpoint}: code %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Against a Chromium coordinator {bidi_endpoint} is empty, and said to be.
func TestWrapBiDiPlaceholderAgainstAChromiumCoordinator(t *testing.T) {
	dir := t.TempDir()
	port := wrapCoordinator(t, dir)
	ep, ws := fmt.Sprintf("http://127.0.0.1:%d", port), fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", port)
	out, stderr, code := runCLI(t, []string{"BIDI_ENDPOINT=ws://elsewhere/session"}, append([]string{"wrap", "--state-dir", dir, "--"}, echoPlaceholders...)...)
	want := fmt.Sprintf("[%d][%s][%s][]\np=%d e=%s w=%s b=\n", port, ep, ws, port, ep, ws)
	if code != 0 || out != want {
		t.Fatalf("wrap: code %d, stdout\n%q\nwant\n%q\nstderr:\n%s", code, out, want, stderr)
	}
	if !strings.Contains(stderr, "{bidi_endpoint} is empty") || !strings.Contains(stderr, "speaks CDP, not WebDriver BiDi") {
		t.Errorf("wrap's stderr does not say {bidi_endpoint} is empty:\n%s", stderr)
	}
}

// The real thing: a BiDi client wrapped against a Firefox coordinator
// reaches Firefox through {bidi_endpoint}.
func TestWrapRunsABiDiClientAgainstFirefox(t *testing.T) {
	firefox := actortest.Firefox(t)
	clients := actortest.ClientsDir(t)
	dir := t.TempDir()
	startServe(t, nil, "--state-dir", dir, "--browser", firefox)
	out, stderr, code := runCLI(t, []string{"CLIENT_TIMEOUT_MS=50000"}, "wrap", "--state-dir", dir, "--",
		"node", filepath.Join(clients, "puppeteer_bidi.mjs"), "{bidi_endpoint}")
	if code != 0 || !strings.Contains(out, `"result":2`) || !strings.Contains(out, `"version":"firefox/`) {
		t.Fatalf("wrapped puppeteer over BiDi: code %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
}

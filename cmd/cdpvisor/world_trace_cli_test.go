package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// What `world trace` and a world's --record refuse with exit 2 before any
// coordinator is asked, saying what is wanted.
func TestWorldTraceRefusesBadInput(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"world", "trace"}, "world trace needs a world's name"},
		{[]string{"world", "trace", "a/b"}, "invalid world name"},
		{[]string{"world", "trace", "shop", "--since", "yesterday"}, `--since "yesterday": want an RFC 3339 time (2026-11-27T11:00:00Z) or how long ago (10m, 1h30m)`},
		{[]string{"world", "trace", "shop", "--since", "-5m"}, "how long ago"},
		{[]string{"world", "trace", "shop", "--format", "gif"}, `--format "gif": want trace (a Playwright trace, the default) or webm`},
		{[]string{"world", "trace", "shop", "--follow"}, "--follow is for world journal, not trace"},
		{[]string{"world", "open", "shop", "--format", "webm"}, "--format is for world trace, not open"},
		{[]string{"world", "list", "--record"}, "--record is a world's record switch, given with world open, not list"},
		{[]string{"world", "close", "shop", "--since", "10m"}, "--since is for world journal and trace, not close"},
		{[]string{"world", "journal", "shop", "--since", "10m"}, "--since"},
		{[]string{"world", "trace", "shop"}, "no running cdpvisor coordinator"},
		{[]string{"wrap", "--record", "--", "true"}, "--record records the command's world: add --isolate"},
	} {
		args := append(c.args, "--state-dir", empty)
		if c.args[0] == "wrap" {
			args = []string{"wrap", "--state-dir", empty, "--record", "--", "true"}
		}
		out, stderr, code := runCLI(t, nil, args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
}

// On a running coordinator: world open --record and wrap --isolate
// --record are taken, world list shows
// the RECORDED column, and a trace that cannot be had (the recorder's
// answer: not recorded, or not running yet) is an error that leaves no
// file, half or whole, and nothing on stdout.
func TestWorldTraceOnACoordinator(t *testing.T) {
	dir := t.TempDir()
	startServe(t, nil, "--browser", actortest.FakeBrowser(t), "--state-dir", dir, "--record-cap", "50MB")
	out, stderr, code := runCLI(t, nil, "world", "open", "rec", "--record", "--state-dir", dir)
	if code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("world open rec --record: exit %d %q %q", code, out, stderr)
	}
	if out, stderr, code = runCLI(t, nil, "world", "open", "rec", "--record=false", "--state-dir", dir); code != 0 || !strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("world open rec --record=false: exit %d %q %q", code, out, stderr)
	}
	// wrap --isolate --record opens the command's world with the switch on.
	if out, stderr, code = runWrapCLI(t, "--state-dir", dir, "--isolate=recw", "--record", "--", "sh", "-c", "echo $CDP_ENDPOINT"); code != 0 ||
		!strings.HasPrefix(out, "http://127.0.0.1:") {
		t.Fatalf("wrap --isolate=recw --record: exit %d %q %q", code, out, stderr)
	}
	if out, _, code = runCLI(t, nil, "world", "list", "--state-dir", dir); code != 0 || !strings.Contains(out, "RECORDED") || !strings.Contains(out, "recw") {
		t.Fatalf("world list: exit %d %q", code, out)
	}
	files := t.TempDir()
	for _, output := range []string{filepath.Join(files, "rec.zip"), "-"} {
		out, stderr, code = runCLI(t, nil, "world", "trace", "rec", "--output", output, "--since", "10m", "--state-dir", dir)
		t.Logf("world trace rec --output %s: exit %d, stderr %q", output, code, stderr)
		if code == 0 || out != "" || !strings.HasPrefix(stderr, "cdpvisor: ") {
			t.Errorf("world trace rec --output %s: exit %d, stdout %q, stderr %q; want an error alone", output, code, out, stderr)
		}
	}
	if left, _ := os.ReadDir(files); len(left) != 0 {
		t.Errorf("a failed trace left %v", left)
	}
}

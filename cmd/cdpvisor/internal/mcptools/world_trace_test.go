package mcptools

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// browser_context open takes record (true or false) and says what became
// of it; trace refuses a bad since, format or a missing name before
// anything is asked, and a trace that cannot be had (the recorder's
// answer) leaves no file in the traces folder; record and format are
// refused with another action, unknown keys as ever.
func TestMCPBrowserContextRecordAndTrace(t *testing.T) {
	root := t.TempDir()
	h := newMCPHarnessWithDownloads(t, root)
	for _, on := range []bool{true, false} {
		text, data := h.call("browser_context", map[string]any{"action": "open", "name": "shop", "record": on}, false)
		world, _ := data["world"].(map[string]any)
		if world["name"] != "shop" || !strings.Contains(text, "world shop of instance") {
			t.Fatalf("open record %v: %q %v", on, text, data)
		}
		if recorded := world["recorded"] == true; on && !recorded && !strings.Contains(text, "record was asked, but") {
			t.Errorf("open record true, not recorded, says %q", text)
		} else if !on && (recorded || !strings.Contains(text, "; not recorded")) {
			t.Errorf("open record false: recorded %v, %q", recorded, text)
		}
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "open", "name": "shop", "record": "yes"}, "a boolean"},
		{map[string]any{"action": "list", "record": true}, "record is a world's record switch, given with open, not list"},
		{map[string]any{"action": "journal", "name": "shop", "format": "webm"}, "format is for trace, not journal"},
		{map[string]any{"action": "close", "name": "shop", "since": "2026-11-27T11:00:00Z"}, "since is for journal and trace, not close"},
		{map[string]any{"action": "trace"}, "needs name"},
		{map[string]any{"action": "trace", "name": "a/b"}, "invalid world name"},
		{map[string]any{"action": "trace", "name": "shop", "format": "gif"}, `format "gif": want trace (a Playwright trace, the default) or webm`},
		{map[string]any{"action": "trace", "name": "shop", "format": 3}, "a string: trace or webm"},
		{map[string]any{"action": "trace", "name": "shop", "since": 3}, "since 3: for trace, an RFC 3339 time (a string)"},
		{map[string]any{"action": "trace", "name": "shop", "since": "10 minutes ago"}, `since "10 minutes ago": for trace, an RFC 3339 time`},
		{map[string]any{"action": "trace", "name": "shop", "path": "/tmp/x.zip"}, `"path"`},
	} {
		if text, _ := h.call("browser_context", c.args, true); !strings.Contains(text, c.want) {
			t.Errorf("%v: %q does not say %q", c.args, text, c.want)
		}
	}
	if _, err := os.Stat(h.c.TracesDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused trace made the traces folder: %v", err)
	}
	// What the recorder answers is its own to test; whatever it is, an
	// error leaves nothing behind.
	res := h.callResult("browser_context", map[string]any{"action": "trace", "name": "shop", "since": "2026-11-27T11:00:00Z"})
	if !res.IsError {
		var got worldTraceAnswer
		decodeStructured(t, res, &got)
		if filepath.Dir(got.Path) != filepath.Join(root, "traces") || got.World != "shop" || got.Format != worldapi.FormatTrace ||
			!strings.HasPrefix(filepath.Base(got.Path), "shop-") || !strings.HasSuffix(got.Path, "Z.zip") {
			t.Errorf("trace: %+v", got)
		}
		return
	}
	left, _ := os.ReadDir(h.c.TracesDir())
	if len(left) != 0 {
		t.Errorf("a failed trace left %v", left)
	}
}

// writeWhole renames a complete file into place, private, and counts what
// was written; an error leaves no file and a file there before as it was.
func TestWriteWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shop-20261207T170405Z.zip")
	n, err := writeWhole(path, func(w io.Writer) error { _, err := io.WriteString(w, "PK-trace"); return err })
	if fi, serr := os.Stat(path); err != nil || n != 8 || serr != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("wrote %d %v; %v %v", n, err, fi, serr)
	}
	boom := errors.New("boom")
	if _, err := writeWhole(path, func(w io.Writer) error { io.WriteString(w, "PK-half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("%v, want boom", err)
	}
	left, _ := os.ReadDir(dir)
	if data, _ := os.ReadFile(path); len(left) != 1 || string(data) != "PK-trace" {
		t.Fatalf("left %v; the file holds %q", left, data)
	}
	if q, err := traceQuery("2026-11-27T11:00:00Z", nil); err != nil || q.Format != worldapi.FormatTrace || !q.Since.Equal(time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("traceQuery: %+v %v", q, err)
	}
}

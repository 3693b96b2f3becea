package mcptools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// download_list of an instance without downloads is an empty JSON array;
// each instance has its own download dir under the coordinator's, which
// coordinator_status and browser_instance new show.
func TestMCPDownloadListEmptyAndDirs(t *testing.T) {
	root := filepath.Join(t.TempDir(), "dl")
	h := newMCPHarnessWithDownloads(t, root)
	text, data := h.call("download_list", nil, false)
	if text != "[]" || data["download_dir"] != filepath.Join(root, h.c.Default().ID) || data["instance"] != h.c.Default().ID {
		t.Fatalf("download_list: %s %v", text, data)
	}
	_, created := h.call("browser_instance", map[string]any{"action": "new"}, false)
	id := created["id"].(string)
	if created["download_dir"] != filepath.Join(root, id) {
		t.Errorf("new instance's download_dir %v, want %s", created["download_dir"], filepath.Join(root, id))
	}
	if _, data := h.call("download_list", map[string]any{"instance": id}, false); data["download_dir"] != filepath.Join(root, id) {
		t.Errorf("download_list of %s: %v", id, data)
	}
	status, _ := h.call("coordinator_status", nil, false)
	for _, want := range []string{"downloads in " + filepath.Join(root, h.c.Default().ID), "downloads in " + filepath.Join(root, id)} {
		if !strings.Contains(status, want) {
			t.Errorf("coordinator_status %q does not say %q", status, want)
		}
	}
	// An explicit dir is used as it is, "~" resolved as for a profile.
	mine := filepath.Join(t.TempDir(), "mine", "deeper")
	_, created = h.call("browser_instance", map[string]any{"action": "new", "download_dir": mine}, false)
	if created["download_dir"] != mine {
		t.Errorf("download_dir %v, want %s", created["download_dir"], mine)
	}
	if info, err := os.Stat(mine); err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Errorf("explicit download dir: %v %v", info, err)
	}
}

// Bad input is a tool error that names what is wrong and what exists.
func TestMCPDownloadBadInput(t *testing.T) {
	h := newMCPHarnessWithDownloads(t, filepath.Join(t.TempDir(), "dl"))
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	def := h.c.Default().ID
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"download_list", map[string]any{"instance": "inst_nope"}, []string{`unknown instance "inst_nope"`, def}},
		{"download_wait", map[string]any{"instance": "inst_nope"}, []string{`unknown instance "inst_nope"`, def}},
		{"download_wait", map[string]any{"id": "no-such-guid"}, []string{`no download "no-such-guid" in instance ` + def, "no downloads yet"}},
		{"download_wait", map[string]any{"id": " "}, []string{"id is empty"}},
		{"download_wait", map[string]any{"timeout_s": 0}, []string{"timeout_s 0 is out of range", "at most 300"}},
		{"download_wait", map[string]any{"timeout_s": 301}, []string{"timeout_s 301 is out of range"}},
		{"download_wait", map[string]any{"timeout_s": -5}, []string{"timeout_s -5 is out of range"}},
		{"download_wait", map[string]any{"timeout_s": "60"}, []string{`argument "timeout_s" must be a number of seconds`}},
		{"download_wait", map[string]any{"colour": "red"}, []string{`unknown argument "colour"`, "id, instance, context and timeout_s"}},
		{"browser_instance", map[string]any{"action": "new", "download_dir": file}, []string{file, "is not a directory", "pass a directory as download_dir"}},
		{"browser_instance", map[string]any{"action": "list", "download_dir": "/x"}, []string{"download_dir is for new"}},
	}
	for _, c := range cases {
		text, _ := h.call(c.tool, c.args, true)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: %q does not say %q", c.tool, c.args, text, w)
			}
		}
	}
}

// With no download at all, download_wait times out saying so.
func TestMCPDownloadWaitTimesOutWithoutDownloads(t *testing.T) {
	h := newMCPHarnessWithDownloads(t, filepath.Join(t.TempDir(), "dl"))
	text, _ := h.call("download_wait", map[string]any{"timeout_s": 0.2}, true)
	if !strings.Contains(text, "timed out after 0.2 s: no download began in instance "+h.c.Default().ID) {
		t.Fatalf("download_wait: %s", text)
	}
	// The wait is over: another call starts a wait of its own.
	if text, _ := h.call("download_list", nil, false); text != "[]" {
		t.Fatalf("download_list: %s", text)
	}
}

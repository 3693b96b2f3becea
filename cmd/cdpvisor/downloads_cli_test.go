package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// A download dir that is not a directory, or cannot be made, stops serve
// and mcp before anything starts, naming the dir and what to do.
func TestUnusableDownloadDirFailsBeforeLaunch(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		env  []string
		args []string
		says string
	}{
		{nil, []string{"serve", "--download-dir", file}, "download directory " + file + " is not a directory"},
		{[]string{"CDPVISOR_DOWNLOAD_DIR=" + filepath.Join(file, "under")}, []string{"mcp"}, "download directory " + filepath.Join(file, "under") + " cannot be used"},
	}
	for _, c := range cases {
		stateDir := t.TempDir()
		args := append(c.args, "--browser", actortest.FakeBrowser(t), "--state-dir", stateDir)
		_, stderr, code := runCLI(t, c.env, args...)
		if code != 1 || !strings.Contains(stderr, c.says) || !strings.Contains(stderr, "--download-dir") {
			t.Errorf("%v %v: exit %d, stderr:\n%s", c.env, c.args, code, stderr)
		}
		if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
			t.Errorf("%v: state files %v", c.args, left)
		}
	}
}

// `~` in --download-dir is the home directory, as for --user-data-dir;
// status shows each instance's folder under it.
func TestDownloadDirTildeAndStatus(t *testing.T) {
	home, stateDir := t.TempDir(), t.TempDir()
	s := startServe(t, []string{"HOME=" + home}, "--browser", actortest.FakeBrowser(t), "--state-dir", stateDir, "--download-dir", "~/agent-dl")
	out, _, code := runCLI(t, nil, "status", "--json", "--state-dir", stateDir)
	var list []state.CoordinatorStatus
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || len(list[0].Instances) != 1 {
		t.Fatalf("status --json: %s", out)
	}
	inst := list[0].Instances[0]
	if want := filepath.Join(home, "agent-dl", inst.ID); inst.DownloadDir != want {
		t.Errorf("download_dir %q, want %q", inst.DownloadDir, want)
	}
	if info, err := os.Stat(filepath.Join(home, "agent-dl")); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the download root: %v %v", info, err)
	}
	table, _, _ := runCLI(t, nil, "status", "--state-dir", stateDir)
	if !strings.Contains(table, "DOWNLOADS") || !strings.Contains(table, inst.DownloadDir) {
		t.Errorf("status:\n%s", table)
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
}

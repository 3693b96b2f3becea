package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
)

// On real Chromium, through `cdpvisor mcp` and Puppeteer: a download made
// in world alice lands in DIR/<instance>/alice/ and is listed with her
// name; download_list and download_wait with context pick a world's; a
// download on the whole browser's endpoint stays in the instance's folder.
func TestWorldDownloadsEndToEnd(t *testing.T) {
	actortest.Chromium(t)
	actortest.ClientsDir(t)
	site := newDownloadSite(t)
	root := filepath.Join(t.TempDir(), "dl")
	m := startMCPClient(t, "--browser", "chromium", "--state-dir", t.TempDir(), "--download-dir", root, "--port", fmt.Sprint(freePort(t)))
	def := m.instances()[0]
	dir := filepath.Join(root, def.ID)

	waited := m.waitAsync(map[string]any{"context": "alice"})
	clickDownloads(t, def.Endpoint+"/context/alice", site.url, "#file")
	alice := <-waited
	if alice.State != downloads.Completed || alice.Context != "alice" || alice.Path != filepath.Join(dir, "alice", "report.bin") ||
		fileSum(t, alice.Path) != sha256.Sum256(site.file) {
		t.Fatalf("alice's download: %+v", alice)
	}

	// The whole browser's: the instance's folder, no world.
	waited = m.waitAsync(map[string]any{})
	clickDownloads(t, def.Endpoint, site.url, "#file")
	plain := <-waited
	if plain.Context != "" || plain.Path != filepath.Join(dir, "report.bin") || fileSum(t, plain.Path) != sha256.Sum256(site.file) {
		t.Fatalf("the whole browser's download: %+v", plain)
	}

	if list := m.listIn("alice"); len(list) != 1 || list[0] != alice {
		t.Errorf("download_list in alice: %+v", list)
	}
	if list := m.listIn("bob"); len(list) != 0 {
		t.Errorf("download_list in bob: %+v", list)
	}
	if list := m.list(""); len(list) != 2 || list[0] != alice || list[1] != plain {
		t.Errorf("download_list: %+v", list)
	}
	// Waiting in alice for the whole browser's download: not hers.
	if text, isError := m.call("download_wait", map[string]any{"context": "alice", "id": plain.ID}); !isError ||
		text != fmt.Sprintf(`download_wait: no download %q in world alice of instance %s; its downloads, newest first: %s (report.bin, completed)`, plain.ID, def.ID, alice.ID) {
		t.Errorf("download_wait in alice for another's: %v %s", isError, text)
	}
	m.close()
}

// listIn is download_list of a world of the default instance.
func (m *mcpClient) listIn(world string) []downloads.Entry {
	m.t.Helper()
	text, isError := m.call("download_list", map[string]any{"context": world})
	var list []downloads.Entry
	if isError || json.Unmarshal([]byte(text), &list) != nil {
		m.t.Fatalf("download_list in %s: %s", world, text)
	}
	return list
}

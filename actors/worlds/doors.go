package worlds

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/guard"
)

// A guarded world touches nothing of the machine: its relays refuse a
// local file or a browser page to its clients (guard.JudgeURL), and files
// go in and out of its pages only through its own folder and the folders
// its owner opened (--allow-file). The relays read the doors with the
// guard, without a mailbox.

// UploadsDir is the folder inside a world's own where files to hand its
// pages are put (the world's downloads land in its own folder, beside it).
const UploadsDir = "uploads"

// Doors are a guarded world's ways to the machine's files.
type Doors struct {
	// Folder is the world's own folder: its downloads land there, and the
	// files in it (its uploads folder among them) may be handed to its
	// pages. "": the instance keeps no downloads.
	Folder string
	// Files are the other folders whose files may be handed to its pages.
	Files []string
}

// Folders are the folders whose files may be handed to the world's pages.
func (d Doors) Folders() []string {
	if d.Folder == "" {
		return d.Files
	}
	return append([]string{d.Folder}, d.Files...)
}

// Walled says the world has a guard: its clients reach nothing of the
// machine (the Door methods below judge for its relays).
func (w *World) Walled() bool { return w.proxy.Load() != nil }

// DoorURL is nil when the world's clients may have the browser load raw:
// always in a world without a guard; in a guarded one, only URLs of the
// network (guard.JudgeURL).
func (w *World) DoorURL(raw string) error {
	if w.proxy.Load() == nil {
		return nil
	}
	return guard.JudgeURL(raw)
}

// DoorFile is nil when the world's clients may hand its pages the file at
// path: always in a world without a guard; in a guarded one, only from
// its folders (guard.JudgeFile).
func (w *World) DoorFile(path string) error {
	p := w.proxy.Load()
	if p == nil {
		return nil
	}
	return guard.JudgeFile(path, p.doors.Folders())
}

// DoorDownloads is where a download path a client of the world names
// lands: the same path in a world without a guard, or inside its folders;
// else the world's own folder; "" for a guarded world without a folder of
// its own (the instance keeps no downloads): nowhere, its downloads are
// denied.
func (w *World) DoorDownloads(path string) (string, error) {
	p := w.proxy.Load()
	if p == nil || (path != "" && guard.JudgeFile(path, p.doors.Folders()) == nil) {
		return path, nil
	}
	return p.doors.Folder, nil
}

// folderOf is the world's own folder in the instance's downloads.
func (r *run) folderOf(name string) string {
	if r.a.spec.Downloads == "" {
		return ""
	}
	return filepath.Join(r.a.spec.Downloads, name)
}

// publishGuard tells the world's relays of its guard and its doors, and
// makes the world's uploads folder (private), where its owner puts the
// files its pages may be given.
func (r *run) publishGuard(w *world) {
	g := w.guard
	d := Doors{Folder: r.folderOf(w.Name()), Files: g.net.Files}
	if d.Folder != "" {
		if err := os.MkdirAll(filepath.Join(d.Folder, UploadsDir), 0o700); err != nil {
			r.log.Warn().Err(err).Str("world", w.Name()).Msg("the world's uploads folder was not made")
		}
	}
	w.handle.proxy.Store(&worldProxy{server: g.proxy.URL(), doors: d})
}

// localLoads are the loads of a local file a guarded world's page may try
// without any client asking (its relays judge what clients ask): going
// back in its history to a file its owner opened there. Chromium lets a
// page go back to such an entry (measured: Chromium 148); the actor's own
// session on each page its clients open fails the load (Fetch sees file:
// loads, not chrome: pages).
var localLoads = []map[string]string{{"urlPattern": "file:*"}, {"urlPattern": "filesystem:*"}}

// onLocalLoad fails a guarded world's page's load of a local file, and
// journals it.
func (r *run) onLocalLoad(session string, params json.RawMessage) {
	var p struct {
		RequestID string `json:"requestId"`
		Request   struct {
			URL string `json:"url"`
		} `json:"request"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == "" {
		return
	}
	r.callOn(session, "Fetch.failRequest", map[string]string{"requestId": p.RequestID, "errorReason": "AccessDenied"}, func(answer) {})
	name := ""
	if w := r.storage.WorldOf(session); w != nil {
		name = w.Name()
	}
	r.log.Info().Str("world", name).Str("rule", guard.RuleDoors).Msg("a guarded world's page was refused a local file")
	if j := r.a.spec.Journal; j != nil && name != "" {
		j.Denied(name, "page load", p.Request.URL, guard.RuleDoors)
	}
}

package downloads

import (
	"fmt"
	"path/filepath"
)

// maxEntries bounds the table of a long-lived instance: past it, the
// oldest finished downloads are forgotten (their files stay).
const maxEntries = 1000

// record is a download and what the table needs to finish it.
type record struct {
	Entry
	gen  int    // the browser generation it began in
	name string // its file name, before any " (n)"
	dir  string // the folder it is saved in: the instance's, or its world's there
}

// table is an instance's downloads in the order they began, over every
// browser generation. Only the DownloadsActor touches it.
type table struct {
	dir  string // the instance's folder; a world's is WorldDir(dir, world)
	list []*record
	byID map[string]*record
}

func newTable(dir string) *table { return &table{dir: dir, byID: map[string]*record{}} }

// begin records a download Chromium began saving as its guid id, in the
// folder of world ("" for none); its path is the free name it will get
// when it completes.
func (t *table) begin(gen int, id, url, suggested, world string) *record {
	if r, ok := t.byID[id]; ok {
		return r
	}
	name := safeName(suggested)
	r := &record{Entry: Entry{ID: id, URL: url, Filename: name, State: InProgress, Context: world}, gen: gen, name: name,
		dir: WorldDir(t.dir, world)}
	r.Path = freePath(r.dir, name, t.reserved)
	t.list = append(t.list, r)
	t.byID[id] = r
	t.trim()
	return r
}

// progress applies a Browser.downloadProgress; finished says the download
// has just completed or been canceled. filePath is where Chromium says a
// completed download is; a file saved under our dir as its guid moves to
// its name then.
func (t *table) progress(id string, received, total int64, state, filePath string) (r *record, finished bool, err error) {
	r, ok := t.byID[id]
	if !ok || r.Finished() {
		return nil, false, nil
	}
	r.ReceivedBytes, r.TotalBytes = received, max(total, 0)
	switch r.State = stateOf(state); r.State {
	case Completed:
		saved := filepath.Join(r.dir, id)
		if filePath != "" && filepath.Clean(filePath) != saved {
			// Saved where someone else's download behaviour said.
			r.Path = filePath
			return r, true, nil
		}
		to, err := moveFree(saved, r.Path, r.dir, r.name)
		r.Path = to
		if err != nil {
			err = fmt.Errorf("download %s is complete but stays at %s: %w", id, to, err)
		}
		return r, true, err
	case Canceled:
		r.Path = ""
		removePartial(r.dir, id)
		return r, true, nil
	}
	return r, false, nil
}

// browserGone cancels the downloads that generation gen left unfinished
// (its browser exited) and removes their partial files.
func (t *table) browserGone(gen int) []*record {
	var out []*record
	for _, r := range t.list {
		if r.gen == gen && !r.Finished() {
			r.State, r.Path = Canceled, ""
			removePartial(r.dir, r.ID)
			out = append(out, r)
		}
	}
	return out
}

// reserved says an unfinished download will take path p.
func (t *table) reserved(p string) bool {
	for _, r := range t.list {
		if !r.Finished() && r.Path == p {
			return true
		}
	}
	return false
}

// oldestInProgress is the unfinished download of world ("" for any) that
// began first, or nil.
func (t *table) oldestInProgress(world string) *record {
	for _, r := range t.list {
		if !r.Finished() && r.In(world) {
			return r
		}
	}
	return nil
}

// entries is the table as the tools show it, oldest first: the downloads
// of world, or every one for "".
func (t *table) entries(world string) []Entry {
	out := make([]Entry, 0, len(t.list))
	for _, r := range t.list {
		if r.In(world) {
			out = append(out, r.Entry)
		}
	}
	return out
}

// trim forgets the oldest finished downloads past maxEntries.
func (t *table) trim() {
	for i := 0; len(t.list) > maxEntries && i < len(t.list); {
		if r := t.list[i]; r.Finished() {
			delete(t.byID, r.ID)
			t.list = append(t.list[:i], t.list[i+1:]...)
			continue
		}
		i++
	}
}

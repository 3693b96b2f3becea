package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/state"
)

// DirIn is the journal directory inside a state directory.
func DirIn(stateDir string) string { return filepath.Join(stateDir, "journal") }

// ErrNotMine is a journal file another user owns (or not a plain file):
// never read, written nor removed.
var ErrNotMine = errors.New("the journal file is not this user's own")

// worldFile is one world's journal on disk: NAME.jsonl, being written, and
// NAME.jsonl.1, the older half. When NAME.jsonl would pass half the cap it
// becomes NAME.jsonl.1 (the former .1, the oldest entries, is dropped), so
// the two together never pass the cap.
type worldFile struct {
	path string
	f    *os.File
	size int64
	seq  uint64 // the last entry's
	// written is when the actor last wrote an entry (closeIdle).
	written time.Time
}

func (w *worldFile) older() string { return w.path + ".1" }

// openWorldFile opens a world's journal for appending, refusing a file
// another user owns, and finds the last sequence number written.
func openWorldFile(dir, world string) (*worldFile, error) {
	w := &worldFile{path: filepath.Join(dir, world+".jsonl")}
	for _, p := range []string{w.older(), w.path} {
		if _, err := os.Lstat(p); err == nil && !state.Mine(p) {
			return nil, fmt.Errorf("%w: %s", ErrNotMine, p)
		}
		if last := lastSeq(p); last > w.seq {
			w.seq = last
		}
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the journal %s: %w", w.path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the journal %s: %w", w.path, err)
	}
	w.f, w.size = f, info.Size()
	return w, nil
}

// append writes one line, rotating first when it would pass half the cap.
func (w *worldFile) append(line []byte, limit int64) error {
	if w.size > 0 && w.size+int64(len(line)) > limit/2 {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	n, err := w.f.Write(line)
	w.size += int64(n)
	if err != nil {
		return fmt.Errorf("write the journal %s: %w", w.path, err)
	}
	return nil
}

func (w *worldFile) rotate() error {
	w.f.Close()
	if err := os.Rename(w.path, w.older()); err != nil {
		return fmt.Errorf("rotate the journal %s: %w", w.path, err)
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("open the journal %s: %w", w.path, err)
	}
	w.f, w.size = f, 0
	return nil
}

func (w *worldFile) close() { w.f.Close() }

// readWorld reads a world's entries after since, oldest first.
func readWorld(dir, world string, since Since) ([]Entry, error) {
	path := filepath.Join(dir, world+".jsonl")
	var out []Entry
	for _, p := range []string{path + ".1", path} {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if !state.Mine(p) {
			return nil, fmt.Errorf("%w: %s", ErrNotMine, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read the journal %s: %w", p, err)
		}
		out = appendLines(out, b, since)
	}
	return out, nil
}

// appendLines decodes the lines of b after since; a line cut short (a
// coordinator killed mid-write) is skipped.
func appendLines(out []Entry, b []byte, since Since) []Entry {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && since.wants(&e) {
			out = append(out, e)
		}
	}
	return out
}

// lastSeq is the sequence number of a journal file's last whole entry.
func lastSeq(path string) uint64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	entries := appendLines(nil, b, Since{})
	if len(entries) == 0 {
		return 0
	}
	return entries[len(entries)-1].Seq
}

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Record is one thing recorded of a world.
type Record struct {
	Time time.Time
	// Kind is short: "frame", "action", "mark", "navigation", … ([a-z_],
	// at most MaxKind bytes).
	Kind string
	Meta []byte // JSON describing it (may be empty)
	Data []byte // a frame's JPEG; nil for others
}

// Spec configures a Store.
type Spec struct {
	Dir         string // the recordings' root (STATEDIR/recordings); made 0700
	WorldCap    int64  // bytes per world; 0: DefaultWorldCap
	TotalCap    int64  // bytes of all worlds together; 0: DefaultTotalCap
	SegmentSize int64  // a segment is closed and a new one begun past it; 0: DefaultSegmentSize
	Log         zerolog.Logger
}

const (
	DefaultWorldCap    = 200 << 20
	DefaultTotalCap    = 2 << 30
	DefaultSegmentSize = 4 << 20
)

var (
	// ErrBadWorld is a world name that cannot name a folder.
	ErrBadWorld = errors.New("not a world name")
	// ErrBadRecord is a record that cannot be stored (its kind or time).
	ErrBadRecord = errors.New("not a record the store keeps")
	// ErrTooLarge is a record past MaxMeta, MaxData or a cap.
	ErrTooLarge = errors.New("the record is too large")
	// ErrNotPrivate is a folder or file another user owns, a link, or one
	// that group or others may use.
	ErrNotPrivate = errors.New("the recordings' folder is not private to this user")
	// ErrBadSpec is a Spec that cannot work.
	ErrBadSpec = errors.New("bad recording store spec")
	// ErrClosed is a Store used after Close.
	ErrClosed = errors.New("the recording store is closed")
)

// Store keeps the worlds' recordings under Spec.Dir (doc.go). One
// goroutine writes through it; Read and Span read alongside.
type Store struct {
	spec Spec

	mu     sync.Mutex
	worlds map[string]*world
	total  int64
	closed bool
	rooted bool // Dir is there and checked private
}

// world is what the Store knows of one world's recording.
type world struct {
	name, dir string
	segs      []*segment   // oldest first
	open      *openSegment // writes the last of segs, when not nil
	size      int64
	dropped   int64 // by the caps, since Open
	last      int64 // the latest time recorded (Unix ns); -1: not read yet
}

// Open makes (or checks) Spec.Dir, measures the worlds stored there and
// trims them to the caps.
func Open(spec Spec) (*Store, error) {
	if spec.Dir == "" || spec.WorldCap < 0 || spec.TotalCap < 0 || spec.SegmentSize < 0 {
		return nil, fmt.Errorf("%w: a folder and caps not below 0 are needed", ErrBadSpec)
	}
	if spec.WorldCap == 0 {
		spec.WorldCap = DefaultWorldCap
	}
	if spec.TotalCap == 0 {
		spec.TotalCap = DefaultTotalCap
	}
	if spec.SegmentSize == 0 {
		spec.SegmentSize = DefaultSegmentSize
	}
	// Dropping the oldest segment must leave something (doc.go, Caps).
	spec.SegmentSize = min(spec.SegmentSize, min(spec.WorldCap, spec.TotalCap)/2)
	s := &Store{spec: spec, worlds: map[string]*world{}}
	if _, err := os.Lstat(spec.Dir); errors.Is(err, fs.ErrNotExist) {
		return s, nil // made at the first record: a coordinator that records nothing makes nothing
	}
	if err := s.ensureRoot(); err != nil {
		return nil, err
	}
	if err := s.scan(); err != nil {
		return nil, err
	}
	if err := s.trim(); err != nil {
		return nil, err
	}
	spec.Log.Debug().Int("worlds", len(s.Worlds())).Int64("bytes", s.Total()).Msg("recordings measured")
	return s, nil
}

// scan measures every world's segments on disk.
func (s *Store) scan() error {
	entries, err := os.ReadDir(s.spec.Dir)
	if err != nil {
		return fmt.Errorf("list the recordings %s: %w", s.spec.Dir, err)
	}
	for _, e := range entries {
		if !e.IsDir() || checkWorld(e.Name()) != nil {
			continue // a link's type is not a folder's
		}
		w := s.world(e.Name())
		if info, err := e.Info(); err != nil || !ownedByMe(info) {
			s.spec.Log.Warn().Str("world", w.name).Msg("a recording folder not this user's is left alone")
			delete(s.worlds, w.name)
			continue
		}
		segs, err := listSegments(w.dir)
		if err != nil {
			return err
		}
		for i := range segs {
			w.segs = append(w.segs, &segs[i])
			w.size += segs[i].size
		}
		s.total += w.size
	}
	return nil
}

// checkWorld refuses a name that is not one folder's (the caller checked
// the name already; this is defence in depth).
func checkWorld(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`+"\x00") {
		return fmt.Errorf("%w: %q", ErrBadWorld, name)
	}
	return nil
}

// world finds or adds a world's entry.
func (s *Store) world(name string) *world {
	w := s.worlds[name]
	if w == nil {
		w = &world{name: name, dir: filepath.Join(s.spec.Dir, name), last: -1}
		s.worlds[name] = w
	}
	return w
}

// ensureRoot makes Dir, or checks it, once.
func (s *Store) ensureRoot() error {
	if s.rooted {
		return nil
	}
	if err := privateDir(s.spec.Dir); err != nil {
		return err
	}
	s.rooted = true
	return nil
}

// privateDir makes dir 0700 when missing and refuses it when it is a
// link, not a folder, another user's, or open to group or others.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the recordings' folder %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("the recordings' folder %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%w: %s is a link or not a folder", ErrNotPrivate, dir)
	}
	return checkPrivate(dir, info)
}

// Append stores r as world's newest record, making room under the caps
// first (caps.go).
func (s *Store) Append(name string, r Record) error {
	if err := checkWorld(name); err != nil {
		return err
	}
	if err := checkRecord(r); err != nil {
		return err
	}
	n := recordSize(r)
	if n+fileHeaderLen > min(s.spec.WorldCap, s.spec.TotalCap) {
		return fmt.Errorf("%w: %d bytes, past a cap", ErrTooLarge, n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	w := s.world(name)
	if o := w.open; o != nil && o.seg.size > fileHeaderLen && o.seg.size+n > s.spec.SegmentSize {
		if err := s.closeOpen(w); err != nil {
			return err
		}
	}
	if err := s.makeRoom(w, n); err != nil {
		return err
	}
	if w.open == nil {
		if err := s.startSegment(w, r.Time.UnixNano()); err != nil {
			return err
		}
	}
	err := writeRecord(w.open.w, r)
	w.open.seg.size += n
	w.size += n
	s.total += n
	w.last = max(w.last, r.Time.UnixNano())
	if err != nil {
		// Part of it may be on disk: a torn tail, read as the segment's end.
		seg := w.open.seg
		w.open.discard()
		w.open = nil
		s.remeasure(w, seg)
		return fmt.Errorf("write the recording of %s: %w", name, err)
	}
	return nil
}

// startSegment begins the world's next segment (doc.go: its name).
func (s *Store) startSegment(w *world, at int64) error {
	if err := s.ensureRoot(); err != nil {
		return err
	}
	if err := privateDir(w.dir); err != nil {
		return err
	}
	var seq uint64 = 1
	if len(w.segs) > 0 {
		last := w.segs[len(w.segs)-1]
		seq = last.seq + 1
		if w.last < 0 { // the first segment since Open: read how far the last went
			w.last = last.bound
			_ = eachRecord(last.path, false, func(r Record) error {
				w.last = max(w.last, r.Time.UnixNano())
				return nil
			})
		}
	}
	bound := max(at, w.last, 0)
	seg := &segment{seq: seq, bound: bound, path: filepath.Join(w.dir, segmentName(seq, bound))}
	o, err := createSegment(seg)
	if err != nil {
		return err
	}
	w.open = o
	w.segs = append(w.segs, seg)
	w.size += seg.size
	s.total += seg.size
	return nil
}

// closeOpen closes the world's open segment, if any.
func (s *Store) closeOpen(w *world) error {
	if w.open == nil {
		return nil
	}
	err := w.open.close()
	if err != nil {
		s.remeasure(w, w.open.seg)
	}
	w.open = nil
	return err
}

// remeasure takes a segment's size from the disk after a failed write.
func (s *Store) remeasure(w *world, seg *segment) {
	size := int64(0)
	if info, err := os.Lstat(seg.path); err == nil {
		size = info.Size()
	}
	w.size += size - seg.size
	s.total += size - seg.size
	seg.size = size
}

// Flush writes what is buffered of the world's open segment to its file,
// for Read to see (no fsync: Read needs the file, not the disk).
func (s *Store) Flush(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.worlds[name]
	if w == nil || w.open == nil {
		return nil
	}
	if err := w.open.w.Flush(); err != nil {
		return fmt.Errorf("flush the recording of %s: %w", name, err)
	}
	return nil
}

// CloseWorld closes the world's open segment: it stopped recording for
// now; its next record begins a new segment.
func (s *Store) CloseWorld(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.worlds[name]; w != nil {
		return s.closeOpen(w)
	}
	return nil
}

// Close closes every open segment; Append is refused afterwards. A Dir
// left empty (nothing was recorded, or only worlds since deleted) goes
// too: a coordinator that recorded nothing leaves nothing.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	var errs []error
	for _, w := range s.worlds {
		errs = append(errs, s.closeOpen(w))
	}
	if entries, err := os.ReadDir(s.spec.Dir); err == nil && len(entries) == 0 {
		_ = os.Remove(s.spec.Dir) // another process's write meanwhile keeps it: not empty
	}
	return errors.Join(errs...)
}

// Size is the bytes stored of a world.
func (s *Store) Size(name string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.worlds[name]; w != nil {
		return w.size
	}
	return 0
}

// Total is the bytes stored of all worlds.
func (s *Store) Total() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Dropped is the bytes of a world the caps deleted since Open.
func (s *Store) Dropped(name string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.worlds[name]; w != nil {
		return w.dropped
	}
	return 0
}

// Worlds lists the worlds with something stored, sorted.
func (s *Store) Worlds() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name, w := range s.worlds {
		if len(w.segs) > 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

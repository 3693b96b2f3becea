package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// segExt ends a segment's file name (doc.go: SEQ-BOUND.rec).
const segExt = ".rec"

// writeBuffer is an open segment's bufio.Writer's size: events pile up in
// it, a frame (larger) goes straight through.
const writeBuffer = 64 << 10

// segment is one segment file of a world.
type segment struct {
	seq   uint64
	bound int64 // Unix nanoseconds no record of an earlier segment passes
	size  int64 // bytes, its unflushed ones too
	path  string
}

func segmentName(seq uint64, bound int64) string {
	return fmt.Sprintf("%06d-%d%s", seq, bound, segExt)
}

// parseSegmentName reads SEQ-BOUND.rec; ok false: not a segment's name.
func parseSegmentName(name string) (seq uint64, bound int64, ok bool) {
	base, found := strings.CutSuffix(name, segExt)
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(base, "-")
	if !found {
		return 0, 0, false
	}
	seq, err1 := strconv.ParseUint(a, 10, 64)
	bound, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || bound < 0 {
		return 0, 0, false
	}
	return seq, bound, true
}

// listSegments lists the segments in a world's folder, oldest first:
// only this user's regular files (others' are not read, counted nor
// deleted). A missing folder has none.
func listSegments(dir string) ([]segment, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the recording %s: %w", dir, err)
	}
	var out []segment
	for _, e := range entries {
		seq, bound, ok := parseSegmentName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || !ownedByMe(info) {
			continue // deleted meanwhile, or another user's
		}
		out = append(out, segment{seq: seq, bound: bound, size: info.Size(), path: filepath.Join(dir, e.Name())})
	}
	slices.SortFunc(out, func(a, b segment) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	return out, nil
}

// openMine opens a segment for reading; ok false: it is gone (deleted by
// the caps meanwhile) or not this user's regular file, and is skipped.
func openMine(path string) (f *os.File, ok bool, err error) {
	f, err = os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("open the recording %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !ownedByMe(info) {
		f.Close()
		return nil, false, nil
	}
	return f, true, nil
}

// eachRecord calls fn with every whole record of the segment at path; a
// torn or damaged record ends it quietly.
func eachRecord(path string, withBody bool, fn func(Record) error) error {
	f, ok, err := openMine(path)
	if !ok {
		return err
	}
	defer f.Close()
	return eachRecordIn(f, withBody, fn)
}

func eachRecordIn(ra io.ReaderAt, withBody bool, fn func(Record) error) error {
	sr, ok, err := newSegmentReader(ra)
	if !ok {
		return err
	}
	for {
		r, err := sr.next(withBody)
		if errors.Is(err, io.EOF) || errors.Is(err, errTorn) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// openSegment is a world's segment being written.
type openSegment struct {
	seg *segment
	f   *os.File
	w   *bufio.Writer
}

// createSegment begins a new segment file (never an existing one).
func createSegment(seg *segment) (*openSegment, error) {
	f, err := os.OpenFile(seg.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create the recording segment %s: %w", seg.path, err)
	}
	o := &openSegment{seg: seg, f: f, w: bufio.NewWriterSize(f, writeBuffer)}
	o.w.WriteString(fileMagic)
	seg.size = fileHeaderLen
	return o, nil
}

// close flushes what is buffered and closes the file.
func (o *openSegment) close() error {
	err := o.w.Flush()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("close the recording segment %s: %w", o.seg.path, err)
	}
	return nil
}

// discard closes the file without writing what is buffered: it is about
// to be deleted.
func (o *openSegment) discard() { o.f.Close() }

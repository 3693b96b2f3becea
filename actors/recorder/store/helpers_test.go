package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var base = time.Unix(1_700_000_000, 0)

func at(i int) time.Time { return base.Add(time.Duration(i) * time.Millisecond) }

// open opens a store in a fresh folder with the given caps.
func open(t *testing.T, spec Spec) *Store {
	t.Helper()
	if spec.Dir == "" {
		spec.Dir = filepath.Join(t.TempDir(), "recordings")
	}
	s, err := Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// event is record i: an event, or a frame every third.
func event(i int) Record {
	r := Record{Time: at(i), Kind: "action", Meta: fmt.Appendf(nil, `{"i":%d}`, i)}
	if i%3 == 0 {
		r.Kind = "frame"
		r.Data = bytes.Repeat([]byte{byte(i)}, 100+i%50)
	}
	return r
}

// index reads back the i event(i) was made with, checking its parts.
func index(t *testing.T, r Record) int {
	t.Helper()
	var i int
	if _, err := fmt.Sscanf(string(r.Meta), `{"i":%d}`, &i); err != nil {
		t.Fatalf("meta %q: %v", r.Meta, err)
	}
	want := event(i)
	if !r.Time.Equal(want.Time) || r.Kind != want.Kind || !bytes.Equal(r.Data, want.Data) || (want.Data == nil) != (r.Data == nil) {
		t.Fatalf("record %d read back as %+v", i, r)
	}
	return i
}

func appendN(t *testing.T, s *Store, world string, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := s.Append(world, event(i)); err != nil {
			t.Fatal(err)
		}
	}
}

// indexes reads the world's records' indexes.
func indexes(t *testing.T, dir, world string, since time.Time) []int {
	t.Helper()
	var out []int
	err := Read(dir, world, since, func(r Record) error {
		out = append(out, index(t, r))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func span(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func segmentFiles(t *testing.T, dir, world string) []segment {
	t.Helper()
	segs, err := listSegments(filepath.Join(dir, world))
	if err != nil {
		t.Fatal(err)
	}
	return segs
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

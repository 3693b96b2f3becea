package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Frames and events come back as written, oldest first, once flushed.
func TestRoundTrip(t *testing.T) {
	s := open(t, Spec{})
	dir := s.spec.Dir
	appendN(t, s, "shop", 0, 30)
	if err := s.Flush("shop"); err != nil {
		t.Fatal(err)
	}
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(0, 30)) {
		t.Fatalf("read %v", got)
	}
	var size int64 = fileHeaderLen
	for i := range 30 {
		size += recordSize(event(i))
	}
	if s.Size("shop") != size || s.Total() != size {
		t.Errorf("size %d, total %d; want %d", s.Size("shop"), s.Total(), size)
	}
	if got := s.Worlds(); !slices.Equal(got, []string{"shop"}) {
		t.Errorf("worlds %v", got)
	}
	first, last, ok, err := Span(dir, "shop")
	if err != nil || !ok || !first.Equal(at(0)) || !last.Equal(at(29)) {
		t.Errorf("span %v %v %v %v", first, last, ok, err)
	}
	if _, _, ok, err := Span(dir, "none"); ok || err != nil {
		t.Errorf("span of nothing: %v %v", ok, err)
	}
}

// since leaves out older records, across segments, whole segments skipped.
func TestReadSince(t *testing.T) {
	s := open(t, Spec{SegmentSize: 600})
	appendN(t, s, "shop", 0, 100)
	s.Flush("shop")
	for _, from := range []int{0, 1, 37, 99} {
		if got := indexes(t, s.spec.Dir, "shop", at(from)); !slices.Equal(got, span(from, 100)) {
			t.Errorf("since %d: %v", from, got)
		}
	}
	if got := indexes(t, s.spec.Dir, "shop", at(100)); len(got) != 0 {
		t.Errorf("since after the last: %v", got)
	}
}

// Times that step back still come back: a segment's bound covers them.
func TestReadSinceTimesSteppingBack(t *testing.T) {
	s := open(t, Spec{SegmentSize: 80}) // two marks a segment
	dir := s.spec.Dir
	times := []int{10, 50, 20, 30, 60, 40, 45, 70, 5}
	for _, ms := range times {
		if err := s.Append("shop", Record{Time: at(ms), Kind: "mark"}); err != nil {
			t.Fatal(err)
		}
	}
	s.Flush("shop")
	if len(segmentFiles(t, dir, "shop")) < 3 {
		t.Fatal("want several segments")
	}
	var got []int
	Read(dir, "shop", at(42), func(r Record) error {
		got = append(got, int(r.Time.Sub(base)/time.Millisecond))
		return nil
	})
	if want := []int{50, 60, 45, 70}; !slices.Equal(got, want) {
		t.Errorf("since 42: %v, want %v", got, want)
	}
}

// A segment is closed past SegmentSize; each holds at least one record.
func TestRotation(t *testing.T) {
	s := open(t, Spec{SegmentSize: 1000})
	dir := s.spec.Dir
	appendN(t, s, "shop", 0, 60)
	s.Flush("shop")
	segs := segmentFiles(t, dir, "shop")
	if len(segs) < 5 {
		t.Fatalf("%d segments", len(segs))
	}
	var total int64
	for i, seg := range segs {
		if seg.seq != uint64(i+1) || seg.size > 1000 {
			t.Errorf("segment %d: %+v", i, seg)
		}
		total += seg.size
	}
	if total != s.Size("shop") {
		t.Errorf("files hold %d bytes, the store counts %d", total, s.Size("shop"))
	}
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(0, 60)) {
		t.Fatalf("read %v", got)
	}
}

// The folders are 0700, the files 0600, and a folder open to others is refused.
func TestModes(t *testing.T) {
	s := open(t, Spec{})
	dir := s.spec.Dir
	appendN(t, s, "shop", 0, 3)
	if err := s.SetSwitch("shop", true); err != nil {
		t.Fatal(err)
	}
	s.Flush("shop")
	for _, p := range []string{dir, filepath.Join(dir, "shop")} {
		if m := mode(t, p); m != 0o700 {
			t.Errorf("%s: %04o", p, m)
		}
	}
	files := []string{filepath.Join(dir, "shop", switchFile)}
	for _, seg := range segmentFiles(t, dir, "shop") {
		files = append(files, seg.path)
	}
	for _, p := range files {
		if m := mode(t, p); m != 0o600 {
			t.Errorf("%s: %04o", p, m)
		}
	}

	grouped := filepath.Join(t.TempDir(), "grouped")
	os.Mkdir(grouped, 0o750)
	os.Chmod(grouped, 0o750)
	if _, err := Open(Spec{Dir: grouped}); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("a folder open to the group: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(dir, link)
	if _, err := Open(Spec{Dir: link}); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("a link: %v", err)
	}
}

// Names that are not one folder's, and records that cannot be kept, are refused.
func TestRefusals(t *testing.T) {
	s := open(t, Spec{WorldCap: 10_000})
	for _, name := range []string{"", ".", "..", "a/b", `a\b`, "../x", "a\x00"} {
		if err := s.Append(name, event(1)); !errors.Is(err, ErrBadWorld) {
			t.Errorf("append %q: %v", name, err)
		}
		if err := s.SetSwitch(name, true); !errors.Is(err, ErrBadWorld) {
			t.Errorf("switch %q: %v", name, err)
		}
		if err := s.Delete(name); !errors.Is(err, ErrBadWorld) {
			t.Errorf("delete %q: %v", name, err)
		}
		if err := Read(s.spec.Dir, name, time.Time{}, func(Record) error { return nil }); !errors.Is(err, ErrBadWorld) {
			t.Errorf("read %q: %v", name, err)
		}
	}
	for _, r := range []Record{
		{Time: at(0), Kind: "Frame"},
		{Time: at(0), Kind: ""},
		{Time: at(0), Kind: strings.Repeat("a", 33)},
		{Kind: "mark"},
		{Time: time.Unix(-1, 0), Kind: "mark"},
	} {
		if err := s.Append("shop", r); !errors.Is(err, ErrBadRecord) {
			t.Errorf("append %+v: %v", r, err)
		}
	}
	for _, r := range []Record{
		{Time: at(0), Kind: "frame", Data: make([]byte, MaxData+1)},
		{Time: at(0), Kind: "mark", Meta: make([]byte, MaxMeta+1)},
		{Time: at(0), Kind: "frame", Data: make([]byte, 10_000)}, // past the world cap
	} {
		if err := s.Append("shop", r); !errors.Is(err, ErrTooLarge) {
			t.Errorf("append %d bytes: %v", len(r.Data)+len(r.Meta), err)
		}
	}
	if s.Total() != 0 || len(s.Worlds()) != 0 {
		t.Errorf("refused records stored: %d bytes", s.Total())
	}
	s.Close()
	if err := s.Append("shop", event(1)); !errors.Is(err, ErrClosed) {
		t.Errorf("append after close: %v", err)
	}
}

// The switch is kept in the world's folder, across a reopen.
func TestSwitchPersists(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	s := open(t, Spec{Dir: dir})
	if on, set := s.Switch("shop"); on || set {
		t.Errorf("unset switch: %v %v", on, set)
	}
	if err := s.SetSwitch("shop", true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSwitch("cart", false); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, Spec{Dir: dir})
	if on, set := s.Switch("shop"); !on || !set {
		t.Errorf("shop: %v %v", on, set)
	}
	if on, set := s.Switch("cart"); on || !set {
		t.Errorf("cart: %v %v", on, set)
	}
	if len(s.Worlds()) != 0 {
		t.Errorf("a switch alone is not a recording: %v", s.Worlds())
	}
	s.SetSwitch("shop", false)
	if on, set := s.Switch("shop"); on || !set {
		t.Errorf("shop switched off: %v %v", on, set)
	}
}

// Delete takes a world's segments, open one included, and its switch.
func TestDelete(t *testing.T) {
	s := open(t, Spec{SegmentSize: 800})
	dir := s.spec.Dir
	appendN(t, s, "shop", 0, 40)
	appendN(t, s, "cart", 0, 5)
	s.SetSwitch("shop", true)
	keep := s.Size("cart")
	if err := s.Delete("shop"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "shop")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder stays: %v", err)
	}
	if _, set := s.Switch("shop"); set {
		t.Error("the switch stays")
	}
	if s.Size("shop") != 0 || s.Total() != keep || !slices.Equal(s.Worlds(), []string{"cart"}) {
		t.Errorf("size %d, total %d, worlds %v", s.Size("shop"), s.Total(), s.Worlds())
	}
	if got := indexes(t, dir, "shop", time.Time{}); len(got) != 0 {
		t.Errorf("read %v", got)
	}
	if err := s.Delete("never"); err != nil {
		t.Errorf("delete nothing: %v", err)
	}
	appendN(t, s, "shop", 100, 102) // begins again
	s.Flush("shop")
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(100, 102)) {
		t.Errorf("read after delete: %v", got)
	}
}

// CloseWorld closes the open segment; the next record begins another.
func TestCloseWorld(t *testing.T) {
	s := open(t, Spec{})
	appendN(t, s, "shop", 0, 3)
	if err := s.CloseWorld("shop"); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, "shop", 3, 6)
	s.Flush("shop")
	if n := len(segmentFiles(t, s.spec.Dir, "shop")); n != 2 {
		t.Errorf("%d segments", n)
	}
	if got := indexes(t, s.spec.Dir, "shop", time.Time{}); !slices.Equal(got, span(0, 6)) {
		t.Errorf("read %v", got)
	}
}

// A store that kept nothing leaves no folder behind once closed; one that
// keeps a recording stays.
func TestCloseLeavesNothingOfAnEmptyStore(t *testing.T) {
	root := t.TempDir()
	empty, kept := filepath.Join(root, "empty"), filepath.Join(root, "kept")
	s, err := Open(Spec{Dir: empty})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Fatalf("an empty store's folder is left: %v", err)
	}
	s, err = Open(Spec{Dir: kept})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append("w", Record{Time: time.Now(), Kind: "mark", Meta: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(kept, "w")); err != nil {
		t.Fatalf("a kept recording's folder is gone: %v", err)
	}
}

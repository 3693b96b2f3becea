package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// Readers read while the writer appends, rotates and drops: each read
// sees whole records in order; with nothing dropped, all of them up to the
// last flushed before it began. (A segment the caps drop while a read goes
// is skipped: a gap, never a reordering.)
func TestReadWhileAppending(t *testing.T) {
	t.Run("kept", func(t *testing.T) { readWhileAppending(t, 10<<20, false) })
	t.Run("dropped", func(t *testing.T) { readWhileAppending(t, 20_000, true) })
}

func readWhileAppending(t *testing.T, worldCap int64, drops bool) {
	s := open(t, Spec{WorldCap: worldCap, SegmentSize: 2000})
	dir := s.spec.Dir
	const n = 2000
	var flushed sync.Map // "last": the last index flushed
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			if err := s.Append("shop", event(i)); err != nil {
				t.Error(err)
				return
			}
			if i%10 == 9 {
				if err := s.Flush("shop"); err != nil {
					t.Error(err)
					return
				}
				flushed.Store("last", i)
			}
		}
	}()
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for reads := 0; ; reads++ {
				select {
				case <-done:
					if reads > 0 {
						return
					}
				default:
				}
				want, _ := flushed.Load("last")
				prev := -1
				err := Read(dir, "shop", time.Time{}, func(r Record) error {
					i := index(t, r)
					if prev >= 0 && (i <= prev || !drops && i != prev+1) {
						t.Errorf("read %d after %d", i, prev)
					}
					prev = i
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				if !drops && want != nil && prev < want.(int) {
					t.Errorf("read up to %d, %d was flushed before", prev, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	<-done
	if drops != (s.Dropped("shop") > 0) {
		t.Errorf("dropped %d bytes", s.Dropped("shop"))
	}
}

// A record cut short (a crash mid-write) or garbage after it ends its
// segment quietly; the next run begins a new segment after it.
func TestTornTail(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	s := open(t, Spec{Dir: dir})
	appendN(t, s, "shop", 0, 5)
	s.Close()
	path := segmentFiles(t, dir, "shop")[0].path
	info, _ := os.Stat(path)
	for cut := int64(1); cut < recordSize(event(4)); cut += 7 {
		if err := os.Truncate(path, info.Size()-cut); err != nil {
			t.Fatal(err)
		}
		if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(0, 4)) {
			t.Fatalf("cut %d bytes: %v", cut, got)
		}
		if _, last, ok, _ := Span(dir, "shop"); !ok || !last.Equal(at(3)) {
			t.Fatalf("cut %d bytes: span to %v", cut, last)
		}
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte{recordMarker, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Close()
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(0, 4)) {
		t.Fatalf("garbage at the end: %v", got)
	}

	s = open(t, Spec{Dir: dir})
	appendN(t, s, "shop", 10, 12)
	s.Flush("shop")
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, []int{0, 1, 2, 3, 10, 11}) {
		t.Fatalf("after a reopen: %v", got)
	}
}

// fn's error stops the read and is returned.
func TestReadStops(t *testing.T) {
	s := open(t, Spec{})
	appendN(t, s, "shop", 0, 10)
	s.Flush("shop")
	stop := errors.New("enough")
	seen := 0
	err := Read(s.spec.Dir, "shop", time.Time{}, func(Record) error {
		seen++
		if seen == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || seen != 3 {
		t.Errorf("%v after %d", err, seen)
	}
}

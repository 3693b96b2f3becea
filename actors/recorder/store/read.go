package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Read calls fn with each record of world in dir (Spec.Dir) whose Time is
// not before since (zero: all), oldest first, while the Store may append.
// It reads the segments there when it begins, so it ends: records flushed
// into the last of them on the way are read, later segments are not.
// Segments older than since are skipped by their names (doc.go); segments
// the caps delete meanwhile are skipped (a gap, oldest first, never a
// reordering); a torn or damaged record ends its segment quietly. fn's error stops the read and is returned. A record's Meta and
// Data are fn's to keep (nil when empty).
func Read(dir, world string, since time.Time, fn func(Record) error) error {
	segs, err := worldSegments(dir, world)
	if err != nil {
		return err
	}
	wantAll := since.IsZero()
	sinceNs := since.UnixNano()
	for i, seg := range segs {
		if !wantAll && i+1 < len(segs) && segs[i+1].bound < sinceNs {
			continue // every record of seg is at most the next one's bound
		}
		err := eachRecord(seg.path, true, func(r Record) error {
			if !wantAll && r.Time.Before(since) {
				return nil
			}
			return fn(r)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Span answers the first and last time recorded of world (ok false:
// nothing), reading the records' headers only.
func Span(dir, world string) (first, last time.Time, ok bool, err error) {
	segs, err := worldSegments(dir, world)
	if err != nil {
		return first, last, false, err
	}
	for _, seg := range segs {
		err := eachRecord(seg.path, false, func(r Record) error {
			if !ok || r.Time.Before(first) {
				first = r.Time
			}
			if !ok || r.Time.After(last) {
				last = r.Time
			}
			ok = true
			return nil
		})
		if err != nil {
			return time.Time{}, time.Time{}, false, err
		}
	}
	return first, last, ok, nil
}

// worldSegments lists a world's segments in dir, refusing a folder that
// is a link or another user's; none when there is no folder.
func worldSegments(dir, world string) ([]segment, error) {
	if err := checkWorld(world); err != nil {
		return nil, err
	}
	wdir := filepath.Join(dir, world)
	info, err := os.Lstat(wdir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the recording %s: %w", wdir, err)
	}
	if !info.IsDir() || !ownedByMe(info) {
		return nil, fmt.Errorf("%w: %s", ErrNotPrivate, wdir)
	}
	return listSegments(wdir)
}

package store

import (
	"errors"
	"fmt"
	"os"
)

// makeRoom deletes the oldest segments until a record of n bytes fits in
// the world's cap and in the total cap (doc.go, Caps). The record fits
// the caps alone (Append checked), so both loops end.
func (s *Store) makeRoom(w *world, n int64) error {
	need := func() int64 {
		if w.open == nil {
			return n + fileHeaderLen // a new segment's magic too
		}
		return n
	}
	for w.size+need() > s.spec.WorldCap {
		if err := s.drop(w, "world"); err != nil {
			return err
		}
	}
	for s.total+need() > s.spec.TotalCap {
		v := s.oldest()
		if v == nil {
			return fmt.Errorf("%w: nothing left to drop", ErrTooLarge)
		}
		if err := s.drop(v, "total"); err != nil {
			return err
		}
	}
	return nil
}

// trim holds the caps over what Open found (they may have been lowered).
func (s *Store) trim() error {
	for _, w := range s.worlds {
		for w.size > s.spec.WorldCap && len(w.segs) > 0 {
			if err := s.drop(w, "world"); err != nil {
				return err
			}
		}
	}
	for s.total > s.spec.TotalCap {
		v := s.oldest()
		if v == nil {
			break
		}
		if err := s.drop(v, "total"); err != nil {
			return err
		}
	}
	return nil
}

// oldest is the world whose oldest segment goes first under the total
// cap: closed segments before open ones, then the oldest bound; nil:
// nothing stored.
func (s *Store) oldest() *world {
	var best *world
	bestOpen := false
	for _, w := range s.worlds {
		if len(w.segs) == 0 {
			continue
		}
		open := w.open != nil && w.open.seg == w.segs[0]
		seg := w.segs[0]
		switch {
		case best == nil, bestOpen && !open:
		case open && !bestOpen:
			continue
		case seg.bound > best.segs[0].bound:
			continue
		case seg.bound == best.segs[0].bound && w.name > best.name:
			continue // the same order every time
		}
		best, bestOpen = w, open
	}
	return best
}

// drop deletes the world's oldest segment (closing it first if it is the
// one being written: it is the world's only one then).
func (s *Store) drop(w *world, cap string) error {
	seg := w.segs[0]
	if w.open != nil && w.open.seg == seg {
		w.open.discard()
		w.open = nil
	}
	if err := os.Remove(seg.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("drop the oldest recording of %s: %w", w.name, err)
	}
	w.segs = w.segs[1:]
	w.size -= seg.size
	s.total -= seg.size
	w.dropped += seg.size
	s.spec.Log.Debug().Str("world", w.name).Str("cap", cap).Int64("bytes", seg.size).
		Int64("dropped", w.dropped).Msg("the oldest recording segment dropped for the cap")
	return nil
}

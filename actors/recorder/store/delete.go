package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Delete deletes everything stored of a world: its segments (the open one
// closed first, its buffer discarded) and its switch. Files in its folder
// that are not the store's, or not this user's, stay, and the folder then.
func (s *Store) Delete(name string) error {
	if err := checkWorld(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := filepath.Join(s.spec.Dir, name)
	if w := s.worlds[name]; w != nil {
		if w.open != nil {
			w.open.discard()
			w.open = nil
		}
		s.total -= w.size
		delete(s.worlds, name)
	}
	if info, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil || !info.IsDir() || !ownedByMe(info) {
		return fmt.Errorf("%w: %s", ErrNotPrivate, dir)
	}
	segs, err := listSegments(dir)
	if err != nil {
		return err
	}
	paths := []string{filepath.Join(dir, switchFile), filepath.Join(dir, switchFile+tmpExt)}
	for _, seg := range segs {
		paths = append(paths, seg.path)
	}
	var errs []error
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("delete the recording of %s: %w", name, err))
		}
	}
	if len(errs) == 0 {
		_ = os.Remove(dir) // not when something else is in it
	}
	s.spec.Log.Debug().Str("world", name).Int("segments", len(segs)).Msg("recording deleted")
	return errors.Join(errs...)
}

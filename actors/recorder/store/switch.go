package store

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The record switch is kept in the world's folder, so that a named world
// keeps it across coordinator restarts: "on" or "off", written whole
// (a temporary file renamed over it).
const (
	switchFile = "switch"
	tmpExt     = ".tmp"
)

// SetSwitch records whether the world is to be recorded.
func (s *Store) SetSwitch(name string, on bool) error {
	if err := checkWorld(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := filepath.Join(s.spec.Dir, name)
	if err := s.ensureRoot(); err != nil {
		return err
	}
	if err := privateDir(dir); err != nil {
		return err
	}
	value := "off\n"
	if on {
		value = "on\n"
	}
	path := filepath.Join(dir, switchFile)
	tmp := path + tmpExt
	_ = os.Remove(tmp) // a crash's leftover; O_EXCL below refuses anything else
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write the record switch of %s: %w", name, err)
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the record switch of %s: %w", name, err)
	}
	return nil
}

// Switch answers the world's record switch; set false: never set (or
// unreadable, or not this user's file).
func (s *Store) Switch(name string) (on, set bool) {
	if checkWorld(name) != nil {
		return false, false
	}
	f, ok, _ := openMine(filepath.Join(s.spec.Dir, name, switchFile))
	if !ok {
		return false, false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 16))
	switch string(bytes.TrimSpace(b)) {
	case "on":
		return true, true
	case "off":
		return false, true
	}
	return false, false
}

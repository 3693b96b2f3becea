// Package wholefile writes a file whole or not at all: what the edges
// save for the user (a world's trace), private, through a file beside it
// renamed once complete.
package wholefile

import (
	"io"
	"os"
	"path/filepath"
)

// Write writes what get gives to path, 0600, through a file beside it
// renamed once complete: an error or an interrupt leaves no half file, and
// a file there before stays as it was.
func Write(path string, get func(io.Writer) (int64, error)) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.part") // 0600
	if err != nil {
		return 0, err
	}
	n, err := get(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return n, err
	}
	return n, nil
}

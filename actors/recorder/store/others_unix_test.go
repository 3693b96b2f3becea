//go:build !windows

package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Another user's segment is neither read, counted nor deleted, and a root
// folder another user owns is refused.
func TestOthersFilesLeftAlone(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
	dir := filepath.Join(t.TempDir(), "recordings")
	s := open(t, Spec{Dir: dir})
	appendN(t, s, "shop", 0, 3)
	s.Close()
	theirs := filepath.Join(dir, "shop", segmentName(99, 0))
	if err := os.WriteFile(theirs, []byte(fileMagic), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chown(theirs, 65534, 65534)
	s = open(t, Spec{Dir: dir})
	if got := indexes(t, dir, "shop", time.Time{}); !slices.Equal(got, span(0, 3)) {
		t.Errorf("read %v", got)
	}
	if n := len(segmentFiles(t, dir, "shop")); n != 1 {
		t.Errorf("%d segments counted", n)
	}
	if err := s.Delete("shop"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(theirs); err != nil {
		t.Errorf("another user's file deleted: %v", err)
	}

	foreign := filepath.Join(t.TempDir(), "foreign")
	os.Mkdir(foreign, 0o700)
	os.Chown(foreign, 65534, 65534)
	if _, err := Open(Spec{Dir: foreign}); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("another user's folder: %v", err)
	}
}

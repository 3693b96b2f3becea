package state

import (
	"os"
	"path/filepath"
)

// defaultDir is in the user's own local application data.
func defaultDir() string {
	if base, err := os.UserCacheDir(); err == nil {
		return filepath.Join(base, "cdpvisor", "state")
	}
	return filepath.Join(os.TempDir(), "cdpvisor")
}

// checkPrivate: the user's profile directories are private by their ACLs;
// owners and modes are not checked on Windows.
func checkPrivate(string, os.FileInfo) error { return nil }

// ownedByMe: file owners are not read on Windows; every file counts as the
// user's own there.
func ownedByMe(os.FileInfo) bool { return true }

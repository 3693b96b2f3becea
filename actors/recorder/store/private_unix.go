//go:build !windows

package store

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivate refuses a folder another user owns or that group or others
// may use at all: recordings are screenshots of the user's pages.
func checkPrivate(dir string, info os.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%w: %s belongs to uid %d, not to you (uid %d)", ErrNotPrivate, dir, st.Uid, os.Geteuid())
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%w: %s has mode %04o; recordings want 0700 (chmod 700 %s)", ErrNotPrivate, dir, perm, dir)
	}
	return nil
}

// ownedByMe tells this user's files from others'.
func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}

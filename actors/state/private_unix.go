//go:build !windows

package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// defaultDir is private to the user: $XDG_RUNTIME_DIR/cdpvisor (a per-user
// tmpfs on most Linux desktops), else cdpvisor-<uid> in the temp dir. An
// XDG_RUNTIME_DIR that is not a directory of the user's own (su keeps the
// caller's) is passed over: a state dir made in it as root would lock its
// owner out.
func defaultDir() string {
	if run := os.Getenv("XDG_RUNTIME_DIR"); run != "" {
		if info, err := os.Stat(run); err == nil && info.IsDir() && ownedByMe(info) {
			return filepath.Join(run, "cdpvisor")
		}
	}
	return filepath.Join(os.TempDir(), "cdpvisor-"+strconv.Itoa(os.Geteuid()))
}

// checkPrivate refuses a state directory another user owns or others may
// write to: its files point clients at endpoints, so nobody else may plant,
// rename or remove one. Read or search access for others is let be: the
// files themselves are 0600 (WriteFileAtomic), so others see names only
// (coordinator-<pid>.json), and a test's t.TempDir() is 0755.
func checkPrivate(dir string, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return remedy.With(fmt.Errorf("the state directory %s belongs to uid %d, not to you (uid %d); cdpvisor keeps its state in a directory of your own", dir, st.Uid, uid),
			remedy.Say("remove it (as its owner or root) if nothing uses it"), remedy.Change(remedy.StateDir))
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return remedy.With(fmt.Errorf("the state directory %s has mode %04o: other users may plant state files there; cdpvisor keeps its state private (0700)", dir, perm),
			remedy.Say("run chmod 700 "+dir), remedy.Say("remove it"), remedy.Change(remedy.StateDir))
	}
	return nil
}

// ownedByMe tells state files of the current user from others'.
func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}

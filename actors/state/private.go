package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// DefaultDir is where state files go unless --state-dir says otherwise:
// a directory private to the user (see defaultDir per OS).
func DefaultDir() string { return defaultDir() }

// PrepareDir makes dir ready for this user's state files: created 0700
// when missing, and refused when it is not a directory, belongs to another
// user or others may write to (Unix; on Windows the user's own
// directories are private by their ACLs).
func PrepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return remedy.With(fmt.Errorf("create the state directory %s: %w", dir, err), remedy.Change(remedy.StateDir))
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("the state directory %s: %w", dir, err)
	}
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		return remedy.With(fmt.Errorf("the state directory %s is a symbolic link; cdpvisor wants the directory itself (a link can be pointed elsewhere)", dir),
			remedy.Fix{Do: remedy.GivePath, Setting: remedy.StateDir, Value: "its real path"}, remedy.Say("remove the link"))
	case !info.IsDir():
		return remedy.With(fmt.Errorf("the state directory %s is not a directory", dir), remedy.Say("remove it"), remedy.Change(remedy.StateDir))
	}
	return checkPrivate(dir, info)
}

// Mine tells whether the file at path belongs to the current user; a file
// another user owns is never read as a coordinator's state nor removed.
func Mine(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode().IsRegular() && ownedByMe(info)
}

// stateFiles lists the coordinator state files in dir that are the
// user's own; log hears of the others.
func stateFiles(dir string, skipped func(path string)) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "coordinator-*.json"))
	out := paths[:0]
	for _, p := range paths {
		if Mine(p) {
			out = append(out, p)
		} else if skipped != nil && !errors.Is(statErr(p), os.ErrNotExist) {
			skipped(p)
		}
	}
	return out
}

func statErr(p string) error { _, err := os.Lstat(p); return err }

package state

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockDir holds an exclusive lock until unlock. Windows locks files, not
// directories: a lock file beside the record, which LockFileEx releases
// if the holder dies.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, EndedFile+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	var ol windows.Overlapped
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = windows.UnlockFileEx(h, 0, 1, 0, &ol); f.Close() }, nil
}

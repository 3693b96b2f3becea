package bridge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Install makes DIR/chrome, a symlink to this executable, for tools that
// want a path to "Chrome", and returns its path. A link already there is
// replaced.
func Install(dir string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	link := filepath.Join(dir, "chrome")
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("replace %s: %w", link, err)
	}
	if err := os.Symlink(self, link); err != nil {
		return "", err
	}
	return link, nil
}

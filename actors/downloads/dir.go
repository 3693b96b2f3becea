package downloads

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// Where downloads land. The root is --download-dir (CDPVISOR_DOWNLOAD_DIR),
// by default a cdpvisor folder in the user's download directory; each
// instance downloads into a folder of its own under it, named by its id
// (ROOT/inst_…/report.pdf), so two instances never mix their files, and each
// world's downloads into a folder of its own inside (ROOT/inst_…/NAME/); the
// root is made and checked before any browser starts, the instance's
// folder by Chromium at its first download (0700). An
// instance made with an explicit download dir (browser_instance new
// download_dir) uses that dir itself, without a subfolder. Never a profile:
// downloads survive restarts, stops and the removal of temporary profiles.

// DefaultRoot is $XDG_DOWNLOAD_DIR/cdpvisor when that is set, else
// ~/Downloads/cdpvisor.
func DefaultRoot() (string, error) {
	if d := strings.TrimSpace(os.Getenv("XDG_DOWNLOAD_DIR")); d != "" {
		base, err := Resolve(d)
		if err != nil {
			return "", fmt.Errorf("XDG_DOWNLOAD_DIR: %w", err)
		}
		return filepath.Join(base, "cdpvisor"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", remedy.With(fmt.Errorf("no download directory: the home directory is unknown (%w)", err),
			remedy.Fix{Do: remedy.GivePath, Setting: remedy.DownloadDir, Value: "one"})
	}
	return filepath.Join(home, "Downloads", "cdpvisor"), nil
}

// Resolve makes a download dir absolute as the profile dir is
// (chrome.UserPath). It touches nothing on disk.
func Resolve(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", remedy.With(errors.New("the download directory is empty"),
			remedy.Fix{Do: remedy.LeaveOut, Setting: remedy.DownloadDir, Text: "for the default"})
	}
	return launch.UserPath("download directory", p)
}

// InstanceDir is an instance's own folder under root.
func InstanceDir(root, instance string) string { return filepath.Join(root, instance) }

// WorldDir is the folder of a world's downloads in its instance's dir:
// DIR/<world>, so two agents' files never mix; dir itself for "" (no
// world). World names are safe path elements (worlds.CheckName).
func WorldDir(dir, world string) string {
	if world == "" {
		return dir
	}
	return filepath.Join(dir, world)
}

// Prepare makes dir ready for downloads before any browser uses it: it is
// created when missing (0700: downloads are the user's own), and anything
// that is not a writable directory is refused with its name and what to do.
func Prepare(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return remedy.With(fmt.Errorf("download directory %s does not exist and cannot be created: %w", dir, err),
				remedy.Fix{Do: remedy.GivePath, Setting: remedy.DownloadDir, Value: "a directory you can write to"})
		}
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said already
		}
		return remedy.With(fmt.Errorf("download directory %s cannot be used: %w", dir, err), remedy.Change(remedy.DownloadDir))
	case !info.IsDir():
		return remedy.With(fmt.Errorf("download directory %s is not a directory", dir),
			remedy.Fix{Do: remedy.GivePath, Setting: remedy.DownloadDir, Value: "a directory"})
	}
	probe, err := os.CreateTemp(dir, ".cdpvisor-write-check-*")
	if err != nil {
		return remedy.With(fmt.Errorf("download directory %s is not writable: %w", dir, err),
			remedy.Say("fix its permissions"), remedy.Change(remedy.DownloadDir))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// removeEmpty removes an instance's folder that cdpvisor named, when the
// actor stops and nothing is in it: its worlds' folders first (and the
// empty folders in them: a guarded world's uploads), each only if empty,
// then the folder itself, only if empty.
func removeEmpty(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			world := filepath.Join(dir, e.Name())
			inner, _ := os.ReadDir(world)
			for _, in := range inner {
				if in.IsDir() {
					_ = os.Remove(filepath.Join(world, in.Name()))
				}
			}
			_ = os.Remove(world)
		}
	}
	_ = os.Remove(dir)
}

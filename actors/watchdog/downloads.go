package watchdog

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rs/zerolog"
)

// chromiumGUID is how Chromium names a download in progress (allowAndName):
// the DownloadsActor renames it once complete; a dead coordinator cannot.
var chromiumGUID = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// clearPartialDownloads removes what downloads the dead coordinator's
// browsers had in progress in dir (*.crdownload and guid-named files), and
// dir itself when tidy (an instance's own folder) and left empty.
func clearPartialDownloads(dir string, tidy bool, log zerolog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	left := len(entries)
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && (strings.HasSuffix(name, ".crdownload") || chromiumGUID.MatchString(name)) {
			if err := os.Remove(filepath.Join(dir, name)); err == nil {
				left--
				log.Info().Str("file", filepath.Join(dir, name)).Msg("removed a partial download of a dead coordinator")
			}
		}
	}
	if tidy && left == 0 {
		_ = os.Remove(dir)
	}
}

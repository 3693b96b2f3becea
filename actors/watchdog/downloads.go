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
// browsers had in progress in dir (*.crdownload and guid-named files) and
// in its worlds' folders (dir/NAME), and, when tidy (an instance's own
// folder), each folder it left empty.
func clearPartialDownloads(dir string, tidy bool, log zerolog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	left := len(entries)
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if clearPartials(name, log) == 0 && tidy && os.Remove(name) == nil {
				left--
			}
		case isPartial(e):
			if os.Remove(name) == nil {
				left--
				log.Info().Str("file", name).Msg("removed a partial download of a dead coordinator")
			}
		}
	}
	if tidy && left == 0 {
		_ = os.Remove(dir)
	}
}

// clearPartials removes the partial downloads in a world's folder and says
// how many entries are left there.
func clearPartials(dir string, log zerolog.Logger) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	left := len(entries)
	for _, e := range entries {
		if isPartial(e) && os.Remove(filepath.Join(dir, e.Name())) == nil {
			left--
			log.Info().Str("file", filepath.Join(dir, e.Name())).Msg("removed a partial download of a dead coordinator")
		}
	}
	return left
}

// isPartial says a folder entry is a download Chromium had in progress.
func isPartial(e os.DirEntry) bool {
	return e.Type().IsRegular() && (strings.HasSuffix(e.Name(), ".crdownload") || chromiumGUID.MatchString(e.Name()))
}

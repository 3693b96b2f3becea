package downloads

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// cdpvisor asks Chromium to save each download under its guid
// ("allowAndName"), then moves the finished file to the name the site
// suggested. Chromium's own naming ("allow") overwrites a file of the same
// name: a second report.pdf would silently replace the first. Here it
// becomes "report (1).pdf".

// safeName is a suggested filename fit to be one path element.
func safeName(suggested string) string {
	name := strings.TrimSpace(suggested)
	name = strings.NewReplacer("/", "_", `\`, "_", "\x00", "_").Replace(name)
	if name == "" || name == "." || name == ".." {
		return "download"
	}
	return name
}

// numbered is name with " (n)" before its extension: "report (2).pdf".
func numbered(name string, n int) string {
	if n == 0 {
		return name
	}
	ext := filepath.Ext(name)
	if ext == name { // ".bashrc"
		ext = ""
	}
	return fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(name, ext), n, ext)
}

// freePath is the first path dir/name, dir/name (1), … that no file takes
// and that taken does not hold.
func freePath(dir, name string, taken func(string) bool) string {
	for n := 0; ; n++ {
		p := filepath.Join(dir, numbered(name, n))
		if taken(p) {
			continue
		}
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p
		}
	}
}

// moveFree moves from to first, or, when something took first meanwhile,
// to the first free dir/name, dir/name (1), …, and returns where it went.
// A link then a removal never replaces a file another process just made.
func moveFree(from, first, dir, name string) (string, error) {
	for n := -1; n < 10000; n++ {
		to := first
		if n >= 0 {
			if to = filepath.Join(dir, numbered(name, n)); to == first {
				continue
			}
		}
		err := os.Link(from, to)
		if err == nil {
			return to, os.Remove(from)
		}
		if errors.Is(err, os.ErrExist) {
			continue
		}
		// No hard links here (some file systems): rename onto a free name.
		if _, statErr := os.Lstat(to); !errors.Is(statErr, os.ErrNotExist) {
			continue
		}
		if err := os.Rename(from, to); err != nil {
			return from, err
		}
		return to, nil
	}
	return from, fmt.Errorf("no free name for %s in %s", name, dir)
}

// removePartial removes what an unfinished download of guid left in dir.
func removePartial(dir, guid string) {
	for _, p := range []string{filepath.Join(dir, guid), filepath.Join(dir, guid+".crdownload")} {
		_ = os.Remove(p)
	}
}

package schema

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// paksOf lists the resource packs that may hold the schema of the browser
// executable exe (its real file, symbolic links resolved) on goos, most
// likely first and each once; version (e.g. "156.0.8078.79", may be "")
// picks among the versioned directories an update leaves side by side.
//
// Measured: Debian's Chromium 156 keeps resources.pak beside its real
// executable (/usr/lib/chromium/resources.pak beside /usr/lib/chromium/chromium).
// Guessed from the layouts of Google's installs and archives, not measured
// here: Chrome on Linux (/opt/google/chrome/resources.pak beside chrome),
// Chrome for Testing archives (beside the executable); on macOS,
// X.app/Contents/MacOS/X with the packs in
// Contents/Frameworks/<Name> Framework.framework/Versions/<version>/Resources/
// (or the framework's Resources link); on Windows, Application\chrome.exe
// with the packs in Application\<version>\. A headless shell's packs have
// other names (headless_lib_data.pak): every other pack beside the
// executable comes last.
func paksOf(exe, goos, version string) []string {
	dir := filepath.Dir(exe)
	var out []string
	switch goos {
	case "darwin":
		frameworks := filepath.Join(filepath.Dir(dir), "Frameworks")
		out = append(out, byVersion(glob(filepath.Join(frameworks, "*.framework", "Versions", "*", "Resources", "resources.pak")), version, 2)...)
		out = append(out, glob(filepath.Join(frameworks, "*.framework", "Resources", "resources.pak"))...)
	case "windows":
		out = append(out, byVersion(glob(filepath.Join(dir, "*", "resources.pak")), version, 1)...)
	}
	out = append(out, filepath.Join(dir, "resources.pak"))
	out = append(out, glob(filepath.Join(dir, "*.pak"))...)
	return existing(out)
}

// byVersion orders packs in versioned directories (the directory up from
// the pack, skip levels up, is named by the version): version's first, then
// the newest.
func byVersion(paks []string, version string, skip int) []string {
	versionOf := func(p string) string {
		for range skip {
			p = filepath.Dir(p)
		}
		return filepath.Base(p)
	}
	slices.SortStableFunc(paks, func(a, b string) int {
		va, vb := versionOf(a), versionOf(b)
		if (va == version) != (vb == version) {
			if va == version {
				return -1
			}
			return 1
		}
		return compareVersions(vb, va)
	})
	return paks
}

// compareVersions compares dotted versions by their numbers.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		var na, nb int
		if i < len(pa) {
			na = atoi(pa[i])
		}
		if i < len(pb) {
			nb = atoi(pb[i])
		}
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
	}
	return 0
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func glob(pattern string) []string {
	m, _ := filepath.Glob(pattern) // only a malformed pattern errs
	return m
}

// existing keeps the regular files, each once, in order.
func existing(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

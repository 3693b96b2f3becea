package schema

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// files makes empty files under root.
func files(t *testing.T, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rel(t *testing.T, root string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		r, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = filepath.ToSlash(r)
	}
	return out
}

func TestThePacksOfEachLayout(t *testing.T) {
	root := t.TempDir()
	files(t, root,
		// Linux: Debian's Chromium, Chrome, a headless shell.
		"usr/lib/chromium/chromium", "usr/lib/chromium/resources.pak", "usr/lib/chromium/chrome_100_percent.pak",
		"opt/google/chrome/chrome", "opt/google/chrome/resources.pak",
		"shell/chrome-headless-shell", "shell/headless_lib_data.pak",
		// macOS: two versions side by side after an update.
		"Chrome.app/Contents/MacOS/Google Chrome",
		"Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Versions/9.0.1.2/Resources/resources.pak",
		"Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Versions/10.0.1.1/Resources/resources.pak",
		// Windows: the same.
		"Chrome/Application/chrome.exe", "Chrome/Application/9.0.1.2/resources.pak", "Chrome/Application/10.0.1.1/resources.pak",
	)
	fw := "Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Versions/"
	cases := []struct {
		exe, goos, version string
		want               []string
	}{
		{"usr/lib/chromium/chromium", "linux", "156.0.8078.79", []string{"usr/lib/chromium/resources.pak", "usr/lib/chromium/chrome_100_percent.pak"}},
		{"opt/google/chrome/chrome", "linux", "", []string{"opt/google/chrome/resources.pak"}},
		{"shell/chrome-headless-shell", "linux", "", []string{"shell/headless_lib_data.pak"}},
		{"Chrome.app/Contents/MacOS/Google Chrome", "darwin", "9.0.1.2", []string{fw + "9.0.1.2/Resources/resources.pak", fw + "10.0.1.1/Resources/resources.pak"}},
		{"Chrome.app/Contents/MacOS/Google Chrome", "darwin", "", []string{fw + "10.0.1.1/Resources/resources.pak", fw + "9.0.1.2/Resources/resources.pak"}},
		{"Chrome/Application/chrome.exe", "windows", "9.0.1.2", []string{"Chrome/Application/9.0.1.2/resources.pak", "Chrome/Application/10.0.1.1/resources.pak"}},
		{"Chrome/Application/chrome.exe", "windows", "", []string{"Chrome/Application/10.0.1.1/resources.pak", "Chrome/Application/9.0.1.2/resources.pak"}},
		{"nowhere/browser", "linux", "", nil},
	}
	for _, c := range cases {
		got := rel(t, root, paksOf(filepath.Join(root, filepath.FromSlash(c.exe)), c.goos, c.version))
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s on %s (version %q): %q, want %q", c.exe, c.goos, c.version, got, c.want)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// Bad input for a Firefox endpoint is refused at once with what to do, and
// nothing is left: Firefox missing (the package to install is named), a
// profile path that is a file or cannot be made.
//
// Only the profile cases need a Firefox (without one, serve refuses the
// browser before it reads the profile); "firefox missing" hides the
// machine's browsers and runs everywhere. The others ask actortest.Firefox,
// which fails in CI and skips elsewhere, as every browser test does.
func TestServeFirefoxBadInput(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	noBrowsers := []string{"CDPVISOR_DETECT_ROOT=" + filepath.Join(home, "no-system"), "PATH=" + filepath.Join(home, "bin"), "HOME=" + home}
	for _, tc := range []struct {
		name         string
		needsFirefox bool
		env          []string
		args         []string
		want         []string
	}{
		{"firefox missing", false, noBrowsers, []string{"--browser", "firefox"},
			[]string{"Firefox (firefox) is not installed", "apt-get install firefox-esr", "give the path of a browser executable with --browser"}},
		{"profile is a file", true, nil, []string{"--user-data-dir", file},
			[]string{"--user-data-dir: profile directory " + file + " is not a directory"}},
		{"profile cannot be made", true, nil, []string{"--user-data-dir", "/proc/cdpvisor-none/profile"},
			[]string{"--user-data-dir: profile directory /proc/cdpvisor-none/profile does not exist and cannot be created"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.needsFirefox {
				args = append([]string{"--browser", actortest.Firefox(t)}, args...)
			}
			stateDir := t.TempDir()
			stdout, stderr, code := runCLI(t, tc.env, append([]string{"serve", "--state-dir", stateDir}, args...)...)
			if code == 0 || stdout != "" {
				t.Fatalf("code %d, stdout %q: want a refusal and no endpoint", code, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if left, _ := os.ReadDir(stateDir); len(left) > 0 {
				t.Errorf("left in the state dir: %v", left)
			}
		})
	}
}

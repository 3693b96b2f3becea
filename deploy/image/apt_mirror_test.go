// Package image holds the container image's build and test scripts
// (build.sh, test.sh); its Go test checks build.sh's choice of a Debian
// mirror (apt_mirror.sh) on fixture apt sources.
package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The mirror comes from the machine's apt sources as apt reads them, or
// from DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR; with neither, build.sh
// stops saying what to set. (The URLs here are fixtures: the project names
// no mirror host of its own.)
func TestDebianMirrorFromAptSourcesOrEnvironment(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("apt_mirror.sh is bash")
	}
	for _, tc := range []struct {
		name      string
		files     map[string]string // under the fixture's /etc/apt
		env       []string
		debian    string
		security  string
		wantError []string
	}{
		{
			name: "deb822, as Debian 12 installs it",
			files: map[string]string{"sources.list.d/debian.sources": `Types: deb
# a comment inside the paragraph
URIs: http://archive.test/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security.test/debian-security
Suites: bookworm-security
Components: main
`},
			debian: "http://archive.test/debian", security: "http://security.test/debian-security",
		},
		{
			name: "deb822: disabled and deb-src entries skipped, names in any case, continued lines, several URIs",
			files: map[string]string{"sources.list.d/a.sources": `Types: deb
URIs: http://disabled.test/debian
Suites: bookworm
Enabled: no

Types: deb-src
URIs: http://src.test/debian
Suites: bookworm

types: deb deb-src
uris: http://first.test/debian
  http://second.test/debian
suites: trixie
  bookworm bookworm-security
`},
			debian: "http://first.test/debian", security: "http://first.test/debian",
		},
		{
			name: "one-line sources.list with options, then sources.list.d",
			files: map[string]string{
				"sources.list": `# deb http://commented.test/debian bookworm main
deb-src http://src.test/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://oneline.test/debian bookworm main
`,
				"sources.list.d/security.list":       "deb http://oneline-security.test/debian-security bookworm-security main\n",
				"sources.list.d/other.sources":       "Types: deb\nURIs: http://later.test/debian\nSuites: bookworm\n",
				"sources.list.d/old.list.disabled":   "deb http://ignored.test/debian bookworm-security main\n",
				"sources.list.d/nodesource.sources~": "Types: deb\nURIs: http://ignored.test/x\nSuites: bookworm-security\n",
			},
			debian: "http://oneline.test/debian", security: "http://oneline-security.test/debian-security",
		},
		{
			name:   "the environment wins over the sources",
			files:  map[string]string{"sources.list": "deb http://oneline.test/debian bookworm main\n"},
			env:    []string{"DEBIAN_MIRROR=http://env.test/debian", "DEBIAN_SECURITY_MIRROR=http://env.test/debian-security"},
			debian: "http://env.test/debian", security: "http://env.test/debian-security",
		},
		{
			name:      "bookworm-security nowhere: say what to set",
			files:     map[string]string{"sources.list": "deb http://oneline.test/debian bookworm main\n"},
			wantError: []string{"no mirror of bookworm-security in this machine's apt sources", "set DEBIAN_SECURITY_MIRROR"},
		},
		{
			name:      "no sources, no environment: say what to set",
			wantError: []string{"no mirror of bookworm in", "set DEBIAN_MIRROR", "set DEBIAN_SECURITY_MIRROR"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			etc := t.TempDir()
			if err := os.MkdirAll(filepath.Join(etc, "sources.list.d"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(etc, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", "-c", `set -euo pipefail; source apt_mirror.sh
if debian_mirrors; then echo "$debian"; echo "$security"; else echo "$mirror_problem" >&2; exit 1; fi`)
			cmd.Env = append(os.Environ(), "DEBIAN_MIRROR=", "DEBIAN_SECURITY_MIRROR=", "APT_ETC="+etc)
			cmd.Env = append(cmd.Env, tc.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if tc.wantError != nil {
				if err == nil {
					t.Fatalf("found mirrors %q, want a failure", out)
				}
				for _, w := range tc.wantError {
					if !strings.Contains(stderr.String(), w) {
						t.Errorf("the failure %q lacks %q", stderr.String(), w)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			if want := tc.debian + "\n" + tc.security + "\n"; string(out) != want {
				t.Errorf("mirrors %q, want %q", out, want)
			}
		})
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// .ci/ensure-browser, the browser step of `task run`, with fake apt-get, id
// and sudo: which route it takes for root, for a user with passwordless
// sudo, for one without, and when apt-get fails. The fake apt-get "installs"
// chromium under the detection root, so nothing on this machine changes.
func TestEnsureBrowserRoutes(t *testing.T) {
	onlyLinuxAMD64(t)
	tests := []struct {
		name      string
		uid       string
		sudo      string // "", "yes", "denied"
		aptFails  bool
		wantCalls []string // apt-get and sudo calls, in order
		wantLog   []string
		installed bool // went the cdpvisor install way
		firefox   bool // a Firefox is there: not what serve runs by default
	}{
		{
			name:      "root: Debian's chromium",
			uid:       "0",
			wantCalls: []string{"apt-get update -q", "apt-get install -y -q chromium"},
			wantLog:   []string{"installing Debian's chromium package", "installed: Chromium"},
		},
		{
			name:      "root with only Firefox: Debian's chromium all the same",
			uid:       "0",
			firefox:   true,
			wantCalls: []string{"apt-get update -q", "apt-get install -y -q chromium"},
			wantLog:   []string{"installing Debian's chromium package", "installed: Chromium"},
		},
		{
			name:      "user with passwordless sudo",
			uid:       "1000",
			sudo:      "yes",
			wantCalls: []string{"sudo true", "sudo apt-get update -q", "apt-get update -q", "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium", "apt-get install -y -q chromium"},
			wantLog:   []string{"installed: Chromium"},
		},
		{
			name:      "user without sudo: cdpvisor install",
			uid:       "1000",
			sudo:      "denied",
			wantLog:   []string{"apt-get needs root, and this user has no passwordless sudo", "downloading Chrome for Testing", "installed: "},
			installed: true,
		},
		{
			name:      "apt-get fails: cdpvisor install",
			uid:       "0",
			aptFails:  true,
			wantCalls: []string{"apt-get update -q", "apt-get install -y -q chromium"},
			wantLog:   []string{"apt-get failed (above)", "downloading Chrome for Testing", "installed: "},
			installed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, home := noBrowserEnv(t)
			bin := shadowPATH(t, filepath.Join(home, "bin"))
			fakes := filepath.Join(home, "fakes")
			calls := filepath.Join(home, "calls")
			root := filepath.Join(home, "no-system")
			if tt.firefox {
				writeExe(t, filepath.Join(root, "usr", "bin"), "firefox-esr", "#!/bin/sh\necho Mozilla Firefox 153.7.0esr\n")
			}
			writeExe(t, fakes, "id", "#!/bin/sh\necho "+tt.uid+"\n")
			writeExe(t, fakes, "apt-get", `#!/bin/sh
echo "apt-get $*" >> "$FAKE_CALLS"
case "$*" in *install*chromium*)
  [ -n "$FAKE_APT_FAILS" ] && exit 100
  mkdir -p "$CDPVISOR_DETECT_ROOT/usr/bin"
  printf '#!/bin/sh\necho Chromium 156.0.8078.79\n' > "$CDPVISOR_DETECT_ROOT/usr/bin/chromium"
  chmod +x "$CDPVISOR_DETECT_ROOT/usr/bin/chromium";;
esac
`)
			if tt.sudo != "" {
				writeExe(t, fakes, "sudo", `#!/bin/sh
[ "$1" = -n ] && shift
[ -n "$FAKE_SUDO_DENIED" ] && exit 1
echo "sudo $*" >> "$FAKE_CALLS"
exec "$@"
`)
			}
			m := chromeMirror(t)
			env = append(env, "PATH="+fakes+":"+bin, "FAKE_CALLS="+calls, "CDPVISOR_BROWSER_MIRROR="+m.URL)
			if tt.aptFails {
				env = append(env, "FAKE_APT_FAILS=1")
			}
			if tt.sudo == "denied" {
				env = append(env, "FAKE_SUDO_DENIED=1")
			}
			cmd := exec.Command("bash", filepath.Join(actortest.RepoRoot(), ".ci", "ensure-browser"), binary)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("ensure-browser: %v\n%s", err, out)
			}
			got, _ := os.ReadFile(calls)
			if strings.Join(tt.wantCalls, "\n") != strings.TrimSpace(string(got)) {
				t.Errorf("calls:\n%s\nwant:\n%s", got, strings.Join(tt.wantCalls, "\n"))
			}
			for _, want := range tt.wantLog {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			_, statErr := os.Stat(filepath.Join(root, "usr", "bin", "chromium"))
			if installedChromium := statErr == nil; installedChromium == tt.installed {
				t.Errorf("apt route taken: %v, want %v", installedChromium, !tt.installed)
			}
			if fetched := m.Hits(actortest.MirrorZipPath("chrome", cftStable, "linux64")) == 1; fetched != tt.installed {
				t.Errorf("Chrome for Testing downloaded: %v, want %v\n%s", fetched, tt.installed, out)
			}
		})
	}
}

func writeExe(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

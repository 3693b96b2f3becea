package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

const cftStable = "131.0.6778.85"

// noBrowserEnv is a machine without browsers for a cdpvisor process: its own
// home and cache, the fixed locations moved under an empty root, nothing on
// PATH, no other cache variables.
func noBrowserEnv(t *testing.T) (env []string, home string) {
	home = t.TempDir()
	return []string{
		"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"CDPVISOR_DETECT_ROOT=" + filepath.Join(home, "no-system"), "PATH=" + filepath.Join(home, "bin"),
		"CDPVISOR_INSTALL_DIR=", "PLAYWRIGHT_BROWSERS_PATH=", "PUPPETEER_CACHE_DIR=", "CDPVISOR_BROWSER_MIRROR=",
		"CDPVISOR_CHANNEL=", "NO_COLOR=1",
	}, home
}

// chromeMirror serves Chrome for Testing stable for linux64 with a browser
// that answers --version.
func chromeMirror(t *testing.T) *actortest.InstallMirror {
	m := actortest.NewInstallMirror(t)
	m.ServeRelease("Stable", cftStable, "chrome", "linux64", actortest.Zip(t,
		actortest.ZipFile{Name: "chrome-linux64/chrome", Body: actortest.VersionScript(cftStable, ""), Mode: 0o755},
		actortest.ZipFile{Name: "chrome-linux64/resources.pak", Body: strings.Repeat("x", 1<<20)},
	))
	return m
}

func TestInstallCommandThenBrowsersFindsIt(t *testing.T) {
	onlyLinuxAMD64(t)
	env, home := noBrowserEnv(t)
	if _, _, code := runCLI(t, env, "browsers"); code != 1 {
		t.Fatalf("browsers on a machine without browsers: exit %d, want 1", code)
	}
	m := chromeMirror(t)
	stdout, stderr, code := runCLI(t, env, "install", "--mirror", m.URL)
	exe := filepath.Join(home, "cache", "cdpvisor", "browsers", "chrome", "stable-"+cftStable, "chrome-linux64", "chrome")
	if code != 0 || stdout != exe+"\n" {
		t.Fatalf("install: exit %d, stdout %q (want the executable's path alone)\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"chrome stable is " + cftStable, "downloading chrome " + cftStable + " (", "installed chrome " + cftStable + " (stable)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "\r") || strings.Contains(stderr, "warning") {
		t.Errorf("not a terminal: plain lines, and the browser starts:\n%s", stderr)
	}

	out, _, code := runCLI(t, env, "browsers", "--json")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("browsers --json: exit %d\n%s", code, out)
	}
	want := map[string]string{"name": "Google Chrome for Testing", "type": "chrome", "channel": "stable", "source": "cdpvisor", "version": cftStable, "path": exe}
	for k, v := range want {
		if list[0][k] != v {
			t.Errorf("browsers --json %s = %v, want %q", k, list[0][k], v)
		}
	}
	out, _, _ = runCLI(t, env, "browsers")
	if !strings.Contains(out, "CHANNEL") || !strings.Contains(out, "cdpvisor") {
		t.Errorf("browsers table lacks channel and source:\n%s", out)
	}

	// The mirror from the environment, the name after the flags: already there.
	stdout, stderr, code = runCLI(t, append(env, "CDPVISOR_BROWSER_MIRROR="+m.URL), "install", "--channel", "stable", "chrome")
	if code != 0 || stdout != exe+"\n" || !strings.Contains(stderr, "already installed") || m.Hits(actortest.MirrorZipPath("chrome", cftStable, "linux64")) != 1 {
		t.Fatalf("second install: exit %d, %q\n%s", code, stdout, stderr)
	}
}

func TestInstallCommandErrors(t *testing.T) {
	onlyLinuxAMD64(t)
	m := chromeMirror(t)
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"install", "firefox"}, 2, `unknown browser "firefox": want chrome, chrome-headless-shell, chromium; run 'cdpvisor install --help'`},
		{[]string{"install", "chrome", "chromium"}, 2, "one browser at a time: got chrome, chromium"},
		{[]string{"install", "--channel", "nightly"}, 2, `unknown channel "nightly": want stable, beta, dev, canary`},
		{[]string{"install", "chromium", "--channel", "beta"}, 2, "chromium has no channels"},
		{[]string{"install", "--chanel", "beta"}, 2, "unknown flag --chanel (did you mean --channel?)"},
		{[]string{"install", "--mirror", m.URL, "--channel", "canary"}, 1, "has no Canary channel"},
		{[]string{"install", "--mirror", m.URL + "/nothing-here"}, 1, "HTTP 404 Not Found"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			env, home := noBrowserEnv(t)
			stdout, stderr, code := runCLI(t, env, tt.args...)
			if code != tt.code || stdout != "" || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d with %q", code, stdout, stderr, tt.code, tt.stderr)
			}
			if entries, _ := os.ReadDir(filepath.Join(home, "cache", "cdpvisor", "browsers", "chrome")); len(entries) != 0 {
				t.Fatalf("left in the cache: %v", entries)
			}
		})
	}
}

// onlyLinuxAMD64: the mirrors here serve linux64 builds of shell scripts.
func onlyLinuxAMD64(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("serves linux64 builds; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
}

// A build that cannot start here (missing libraries) is installed, with a
// warning that shows the loader's words.
func TestInstallCommandWarnsWhenTheBrowserDoesNotStart(t *testing.T) {
	onlyLinuxAMD64(t)
	m := actortest.NewInstallMirror(t)
	m.ServeRelease("Stable", cftStable, "chrome", "linux64", actortest.Zip(t, actortest.ZipFile{
		Name: "chrome-linux64/chrome", Mode: 0o755,
		Body: "#!/bin/sh\necho 'chrome: error while loading shared libraries: libnss3.so: cannot open shared object file' >&2\nexit 127\n",
	}))
	env, _ := noBrowserEnv(t)
	stdout, stderr, code := runCLI(t, env, "install", "--mirror", m.URL)
	if code != 0 || !strings.HasSuffix(stdout, "/chrome\n") ||
		!strings.Contains(stderr, "warning: the installed browser does not start here") || !strings.Contains(stderr, "libnss3.so") {
		t.Fatalf("exit %d, stdout %q\n%s", code, stdout, stderr)
	}
}

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// onlyFirefoxEnv is a machine whose one browser is a Firefox (a script
// that answers --version under root, the detection root).
func onlyFirefoxEnv(t *testing.T) (env []string, root string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("fakes browsers as shell scripts under Linux's places; this is %s", runtime.GOOS)
	}
	env, home := noBrowserEnv(t)
	root = filepath.Join(home, "no-system") // noBrowserEnv's CDPVISOR_DETECT_ROOT
	writeExe(t, filepath.Join(root, "usr", "bin"), "firefox-esr", "#!/bin/sh\necho Mozilla Firefox 153.7.0esr\n")
	return env, root
}

// browsersJSON runs browsers --json and decodes its list, whatever the exit.
func browsersJSON(t *testing.T, env []string, args ...string) (types []string, stderr string, code int) {
	t.Helper()
	out, stderr, code := runCLI(t, env, append([]string{"browsers", "--json"}, args...)...)
	var list []struct{ Type, Protocol string }
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("browsers --json %v: exit %d, not JSON (%v):\n%s", args, code, err, out)
	}
	types = []string{}
	for _, b := range list {
		types = append(types, b.Type+"/"+b.Protocol)
	}
	return types, stderr, code
}

// No browser: exit 1 with and without --json, as the help says; --json
// still prints a list ([]) for the scripts that parse it, and stderr says
// what to install.
func TestBrowsersExitsOneWhenThereIsNone(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("hides the browsers of Linux's places; this is %s", runtime.GOOS)
	}
	env, _ := noBrowserEnv(t)
	out, stderr, code := runCLI(t, env, "browsers")
	if code != 1 || out != "" || !strings.Contains(stderr, "cdpvisor install") {
		t.Errorf("browsers: exit %d, stdout %q, stderr %q: want 1, nothing, what to install", code, out, stderr)
	}
	types, stderr, code := browsersJSON(t, env)
	if code != 1 || len(types) != 0 || !strings.Contains(stderr, "cdpvisor install") {
		t.Errorf("browsers --json: exit %d, %v, stderr %q: want 1, [], what to install", code, types, stderr)
	}
	help, _, _ := runCLI(t, nil, "browsers", "--help")
	if !strings.Contains(help, "Exits 1 when there is none") || !strings.Contains(help, "with --json too") {
		t.Errorf("browsers --help does not say the exit status of --json:\n%s", help)
	}
}

// --protocol lists one family: with only Firefox, cdp finds none (exit 1,
// Chromium's fixes), bidi finds it.
func TestBrowsersProtocolFiltersByFamily(t *testing.T) {
	env, _ := onlyFirefoxEnv(t)
	if types, _, code := browsersJSON(t, env); code != 0 || strings.Join(types, " ") != "firefox/bidi" {
		t.Errorf("browsers --json: exit %d, %v: want 0, the Firefox", code, types)
	}
	if types, _, code := browsersJSON(t, env, "--protocol", "bidi"); code != 0 || strings.Join(types, " ") != "firefox/bidi" {
		t.Errorf("browsers --json --protocol bidi: exit %d, %v: want 0, the Firefox", code, types)
	}
	types, stderr, code := browsersJSON(t, env, "--protocol", "cdp")
	if code != 1 || len(types) != 0 || !strings.Contains(stderr, "cdpvisor install") {
		t.Errorf("browsers --json --protocol cdp: exit %d, %v, stderr %q: want 1, [], Chromium's fixes", code, types, stderr)
	}
	if out, _, code := runCLI(t, env, "browsers", "--protocol", "cdp"); code != 1 || out != "" {
		t.Errorf("browsers --protocol cdp: exit %d, %q: want 1 and no table", code, out)
	}
	if _, stderr, code := runCLI(t, env, "browsers", "--protocol", "webkit"); code != 2 || !strings.Contains(stderr, "want cdp or bidi") {
		t.Errorf("browsers --protocol webkit: exit %d, %q: want a usage error", code, stderr)
	}
}

// Taskfile.yml's browser task is skipped when its status command succeeds:
// it must fail with only a Firefox, which serve does not run by default, so
// that `task run` installs a Chromium-family browser; and succeed once one
// is there.
func TestTaskBrowserStatusWantsAChromiumFamilyBrowser(t *testing.T) {
	env, root := onlyFirefoxEnv(t)
	status := taskStatus(t, "browser")
	run := func() error {
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(status, "{{.BIN}}", binary))
		cmd.Env = append(os.Environ(), env...)
		return cmd.Run()
	}
	if err := run(); err == nil {
		t.Errorf("%q succeeds with only a Firefox: task run would skip installing a browser serve can run", status)
	}
	writeExe(t, filepath.Join(root, "usr", "bin"), "chromium", "#!/bin/sh\necho Chromium 156.0.8078.79\n")
	if err := run(); err != nil {
		t.Errorf("%q fails with a Chromium installed: %v", status, err)
	}
}

// taskStatus is the one status command of a task in Taskfile.yml.
func taskStatus(t *testing.T, task string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(actortest.RepoRoot(), "Taskfile.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^  ` + task + `:\n(?:    .*\n)*?    status:\n(?:\s+#.*\n)*\s+- '([^']+)'`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("Taskfile.yml: no status command in task %s", task)
	}
	return string(m[1])
}

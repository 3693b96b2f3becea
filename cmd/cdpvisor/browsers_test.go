package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

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

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

// wrapChild asks the endpoint wrap hands it for /json/version, which
// launches the Windows browser, and exits 3.
const wrapChild = `curl -sf --noproxy '*' {cdp_endpoint}/json/version; exit 3`

// runWSLWrap runs `cdpvisor wrap args…` inside the fake WSL and checks that
// the child reached a Windows browser through the coordinator.
func runWSLWrap(t *testing.T, win *actortest.FakeWindows, args ...string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"wrap"}, args...)...)
	cmd.Env = append(os.Environ(), win.Env()...)
	var stdout, stderr actortest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); cmd.ProcessState == nil {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Fatalf("wrap exited %d, want the child's 3; stderr:\n%s", code, stderr.String())
	}
	var version struct{ Browser, WebSocketDebuggerURL string }
	if err := json.Unmarshal([]byte(stdout.String()), &version); err != nil || !strings.Contains(version.Browser, "FakeChrome") {
		t.Fatalf("/json/version through wrap's endpoint: %q (%v); stderr:\n%s", stdout.String(), err, stderr.String())
	}
}

// wrap inside WSL, against a running serve --windows and standalone, with
// mirrored and NAT networking: the child's endpoint reaches the Windows
// browser, and nothing is left on the Windows side once it is all over.
func TestWSLWrap(t *testing.T) {
	for _, mode := range natModes {
		t.Run(mode.name+"/coordinator", func(t *testing.T) {
			win := fakeWindowsIn(t, mode.env)
			dir := t.TempDir()
			s := startServe(t, win.Env(), "--windows", "--state-dir", dir)
			runWSLWrap(t, win, "--state-dir", dir, "--", "sh", "-c", wrapChild)
			onlyWindowsBrowser(t, win)
			if err := s.stop(t); err != nil {
				t.Fatalf("serve: %v", err)
			}
			nothingLeftOnWindows(t, win)
			waitNoHelpers(t, win)
		})
		t.Run(mode.name+"/standalone", func(t *testing.T) {
			win := fakeWindowsIn(t, mode.env)
			runWSLWrap(t, win, "--standalone", "--timeout", "200ms", "--state-dir", t.TempDir(), "--windows", "--", "sh", "-c", wrapChild)
			nothingLeftOnWindows(t, win)
			waitNoHelpers(t, win)
		})
	}
}

package actortest

import (
	"os"
	"os/exec"
	"testing"
)

// Firefox returns Debian's firefox-esr (or another Firefox on $PATH).
// Without one the test is skipped on a developer's machine and fails in CI
// (where .ci/setup installs it).
func Firefox(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/firefox-esr"); err == nil {
		return "/usr/bin/firefox-esr"
	}
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(t, "Debian's firefox-esr (run .ci/setup, or apt-get install firefox-esr)")
	return ""
}

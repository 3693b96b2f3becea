package actortest

import (
	"os"
	"os/exec"
	"testing"
)

// Chromium returns Debian's chromium. Without it the test is skipped on a
// developer's machine and fails in CI (where .ci/setup installs it).
func Chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	Missing(t, "Debian's chromium (run .ci/setup, or apt-get install chromium)")
	return ""
}

// Missing skips a test that needs something absent, or fails it in CI.
func Missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing, and CI is set: the test must run", what)
	}
	t.Skipf("%s is missing; skipping (it is required when CI is set)", what)
}

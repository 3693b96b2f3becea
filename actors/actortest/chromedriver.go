package actortest

import (
	"os"
	"testing"
)

// Chromedriver returns Debian's chromedriver (package chromium-driver), the
// one the Selenium tests hand to selenium-webdriver so that selenium-manager
// never looks for or downloads another. Without it the test is skipped on a
// developer's machine and fails in CI (where .ci/setup installs it).
func Chromedriver(t testing.TB) string {
	t.Helper()
	const path = "/usr/bin/chromedriver"
	if _, err := os.Stat(path); err == nil {
		return path
	}
	Missing(t, "Debian's chromedriver (run .ci/setup, or apt-get install chromium-driver)")
	return ""
}

package actortest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	fakeBrowserPackage = "github.com/cdpvisor/cdpvisor/testdata/fakebrowser"
	// buildDirPrefix names the directories fake browser builds go to. Paths
	// stay short: Chromium-like code breaks on long socket paths.
	buildDirPrefix = "cdpvtest-fb-"
)

var fakeBuild struct {
	once sync.Once
	path string
	err  error
}

// FakeBrowser returns the path of the fake browser binary, a stand-in for
// Chromium that takes the same command line and injects faults on request
// (--fake-* switches, see testdata/fakebrowser). It is built once per test
// process; a build failure fails the test with the compiler's output.
func FakeBrowser(t testing.TB) string {
	t.Helper()
	fakeBuild.once.Do(func() { fakeBuild.path, fakeBuild.err = buildFakeBrowser() })
	if fakeBuild.err != nil {
		t.Fatal(fakeBuild.err)
	}
	return fakeBuild.path
}

func buildFakeBrowser() (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("actortest: go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(gomod))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("actortest: not inside the cdpvisor module")
	}
	removeStaleBuilds()
	dir, err := os.MkdirTemp("", buildDirPrefix)
	if err != nil {
		return "", fmt.Errorf("actortest: %v", err)
	}
	bin := filepath.Join(dir, "fakebrowser")
	cmd := exec.Command("go", "build", "-o", bin, fakeBrowserPackage)
	cmd.Dir = filepath.Dir(mod)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("actortest: building the fake browser: %v\n%s", err, out)
	}
	return bin, nil
}

// removeStaleBuilds deletes builds more than an hour old. Each test process
// leaves its build behind (nothing runs at process exit), so without this
// they would pile up in the temp directory.
func removeStaleBuilds() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), buildDirPrefix+"*"))
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.RemoveAll(dir)
		}
	}
}

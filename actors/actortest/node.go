package actortest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// RepoRoot is the module's root directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// ClientsDir is testdata/clients, where the pinned npm clients live.
func ClientsDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(RepoRoot(), "testdata", "clients")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		Missing(t, "the npm test clients (run .ci/setup)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		Missing(t, "node")
	}
	return dir
}

// NodeScript runs a client script from testdata/clients and returns its
// stdout; stderr goes to the test log.
func NodeScript(t testing.TB, timeout time.Duration, script string, args ...string) (string, error) {
	t.Helper()
	dir := ClientsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CLIENT_TIMEOUT_MS="+itoa(int(timeout/time.Millisecond)-2000))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("%s stderr:\n%s", script, stderr.String())
	}
	return stdout.String(), err
}

func itoa(n int) string {
	if n < 1000 {
		n = 1000
	}
	return strconv.Itoa(n)
}

package actortest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// goClientBuilds are the client programs of testdata/goclients built by
// this test process, by name.
var goClientBuilds struct {
	mu   sync.Mutex
	bins map[string]goClientBuild
}

type goClientBuild struct {
	path string
	err  error
}

// GoClient returns the path of testdata/goclients/cmd/NAME, a third-party
// Go CDP client (chromedp, go-rod) driven by the tests, built once per test
// process into a directory that removeStaleBuilds ends. Its module is its
// own: the clients' dependencies come through the Go module proxy, never
// into cdpvisor's go.mod.
func GoClient(t testing.TB, name string) string {
	t.Helper()
	goClientBuilds.mu.Lock()
	defer goClientBuilds.mu.Unlock()
	b, ok := goClientBuilds.bins[name]
	if !ok {
		b.path, b.err = buildGoClient(name)
		if goClientBuilds.bins == nil {
			goClientBuilds.bins = map[string]goClientBuild{}
		}
		goClientBuilds.bins[name] = b
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

func buildGoClient(name string) (string, error) {
	removeStaleBuilds()
	dir, err := os.MkdirTemp("", buildDirPrefix)
	if err != nil {
		return "", fmt.Errorf("actortest: %v", err)
	}
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	cmd.Dir = filepath.Join(RepoRoot(), "testdata", "goclients")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("actortest: building the Go client %s: %v\n%s", name, err, out)
	}
	return bin, nil
}

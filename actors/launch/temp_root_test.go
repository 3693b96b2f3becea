package launch_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Under a $TMPDIR too long for Chromium's sockets (macOS's always is) the
// browser still gets a $TMPDIR of its launch, removed with it: it never
// writes its org.chromium.Chromium.* into the coordinator's $TMPDIR, where
// a killed browser's would stay.
func TestALongTMPDIRStillGivesTheBrowserATMPDIROfItsLaunch(t *testing.T) {
	long := filepath.Join(os.TempDir(), strings.Repeat("d", 50))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(long) })
	t.Setenv("TMPDIR", long)

	p := startFake(t)
	f := p.Describe()
	tmp := filepath.Join(f.TempDir, "tmp")
	pids, err := proc.WithEnv("TMPDIR", tmp)
	if errors.Is(err, proc.ErrNoProcessTable) {
		t.Skip("reading another process's environment needs Linux")
	}
	if err != nil || !slices.Contains(pids, f.Pid) {
		t.Fatalf("the browser %d does not run with TMPDIR=%s (launch dir under %s): %v %v", f.Pid, tmp, launch.TempRoot(), pids, err)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.TempDir); !os.IsNotExist(err) {
		t.Fatalf("the launch's directory %s is still there: %v", f.TempDir, err)
	}
	if left, _ := os.ReadDir(long); len(left) > 0 {
		t.Fatalf("left in the long TMPDIR: %v", left)
	}
}

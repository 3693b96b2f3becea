package watchdog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/rs/zerolog"
)

func TestCleanupEndsOnlyTheGuardedBrowser(t *testing.T) {
	stateDir, tmp := t.TempDir(), t.TempDir()
	dir := filepath.Join(tmp, launch.TempPrefix+"1-guarded")
	p := fakeOn(t, filepath.Join(dir, "profile"))
	coordinator := actortest.DeadPID(t)
	stateFile := writeState(t, stateDir, state.File{Port: 1, PID: coordinator})
	log := zerolog.New(zerolog.NewTestWriter(t))

	// A pid that is not that browser any more (another executable) is left alone.
	wrong := ProcessSpec{Browser: p.Identity(), RemoveDir: dir, StateFile: stateFile, CoordinatorPID: coordinator}
	wrong.Browser.Exe = "/bin/sh"
	Cleanup(wrong, launch.System{}, log)
	if exitedWithin(p, 500*time.Millisecond) {
		t.Fatal("a process that is not the guarded browser was ended")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the directory of a running browser was removed: %v", err)
	}

	spec := ProcessSpec{Browser: p.Identity(), RemoveDir: dir, StateFile: stateFile, CoordinatorPID: coordinator}
	args := spec.Args()
	if i := slices.Index(args, "--user-data-dir"); i < 0 || i+1 >= len(args) || args[i+1] != p.UserDataDir {
		t.Fatalf("watchdog command line %q lacks the profile", args)
	}
	Cleanup(spec, launch.System{}, log)
	if !exitedWithin(p, 5*time.Second) {
		t.Fatal("the guarded browser still runs")
	}
	for _, gone := range []string{dir, stateFile} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Fatalf("%s is still there: %v", gone, err)
		}
	}
}

func TestWaitTellsARelease(t *testing.T) {
	released, coordinator, _ := os.Pipe()
	go func() { _, _ = coordinator.Write([]byte{releaseByte}); coordinator.Close() }()
	if Wait(released) {
		t.Fatal("a release was taken for the coordinator's death")
	}
	died, coordinatorDied, _ := os.Pipe()
	coordinatorDied.Close()
	if !Wait(died) {
		t.Fatal("EOF was taken for a release")
	}
}

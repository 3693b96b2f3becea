package watchdog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// fakeOn starts the fake browser on profile, in its own process group as
// every launch is; the test stops it in the end if nothing else did.
func fakeOn(t *testing.T, profile string) *launch.Process {
	t.Helper()
	p, err := chromium.Start(context.Background(), launch.Options{
		Browser:     launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless:    true,
		UserDataDir: profile,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop() })
	return p
}

func writeState(t *testing.T, dir string, s state.File) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := state.FileName(dir, s.PID)
	if err := state.WriteFileAtomic(path, data); err != nil {
		t.Fatal(err)
	}
	return path
}

func exitedWithin(p *launch.Process, d time.Duration) bool {
	select {
	case <-p.Exited():
		return true
	case <-time.After(d):
		return false
	}
}

func TestReapEndsWhatDeadCoordinatorsLeftAndNothingElse(t *testing.T) {
	stateDir, tmp := t.TempDir(), t.TempDir()
	dead, live := actortest.DeadPID(t), os.Getpid()
	deadState := writeState(t, stateDir, state.File{Port: 1, PID: dead})
	liveState := writeState(t, stateDir, state.File{Port: 2, PID: live})
	deadDir := filepath.Join(tmp, fmt.Sprintf("%s%d-abc", launch.TempPrefix, dead))
	liveDir := filepath.Join(tmp, fmt.Sprintf("%s%d-def", launch.TempPrefix, live))
	orphan := fakeOn(t, filepath.Join(deadDir, "profile"))
	kept := fakeOn(t, filepath.Join(liveDir, "profile"))

	Reap(launch.System{}, stateDir, tmp, zerolog.New(zerolog.NewTestWriter(t)))

	if !exitedWithin(orphan, 5*time.Second) {
		t.Fatalf("the browser of a dead coordinator (pid %d) still runs", orphan.Pid)
	}
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Fatalf("the dead coordinator's directory is still there: %v", err)
	}
	if _, err := os.Stat(deadState); !os.IsNotExist(err) {
		t.Fatalf("the dead coordinator's state file is still there: %v", err)
	}
	if exitedWithin(kept, 0) || !proc.PidAlive(kept.Pid) {
		t.Fatal("the browser of a live coordinator was ended")
	}
	for _, p := range []string{liveDir, liveState} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("a live coordinator's %s was removed: %v", p, err)
		}
	}
}

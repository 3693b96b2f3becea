//go:build !windows

package watchdog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/leases"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Issue 12 (items 5, 7 and 8): the reaper and the watchdog's clean-up
// never act on another user's files, keep a dead coordinator's port, and
// reap unreadable state files only once they are old.

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
}

func uidOf(t *testing.T, path string) int {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(info.Sys().(*syscall.Stat_t).Uid)
}

func endedIn(t *testing.T, dir string) []state.Ended {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, state.EndedFile))
	if err != nil {
		return nil
	}
	var list []state.Ended
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// The reaper removes a dead coordinator's state file and keeps its port;
// another user's state file, dead too, is neither removed nor recorded.
func TestReapKeepsTheDeadPortAndLeavesAnotherUsersFiles(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	dead := writeState(t, dir, state.File{Port: 4321, PID: actortest.DeadPID(t), PPID: 77})
	Reap(launch.System{}, dir, tmp, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Fatalf("the dead coordinator's state file is still there: %v", err)
	}
	if list := endedIn(t, dir); len(list) != 1 || list[0].Port != 4321 || list[0].PPID != 77 {
		t.Fatalf("record %+v, want port 4321 of parent 77", list)
	}
	_ = os.Remove(filepath.Join(dir, state.EndedFile))

	needRoot(t)
	theirs := writeState(t, dir, state.File{Port: 4322, PID: actortest.DeadPID(t)})
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	Reap(launch.System{}, dir, tmp, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(theirs); err != nil {
		t.Fatalf("the reaper removed another user's state file: %v", err)
	}
	if list := endedIn(t, dir); len(list) != 0 {
		t.Fatalf("another user's port was recorded: %+v", list)
	}
	_ = os.Remove(theirs)
}

// A record of ended ports another user owns is not replaced by the
// reaper; the dead coordinator's own state file still goes.
func TestReapLeavesAnotherUsersEndedRecord(t *testing.T) {
	needRoot(t)
	dir, tmp := t.TempDir(), t.TempDir()
	record := filepath.Join(dir, state.EndedFile)
	if err := os.WriteFile(record, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(record, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	dead := writeState(t, dir, state.File{Port: 4323, PID: actortest.DeadPID(t)})
	Reap(launch.System{}, dir, tmp, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Fatalf("the dead coordinator's state file is still there: %v", err)
	}
	if uidOf(t, record) != 65534 {
		t.Fatal("the reaper replaced another user's record of ended ports")
	}
}

// An unreadable state file is reaped once older than the grace period,
// never while it may be being written.
func TestReapRemovesOldUnreadableStateFilesOnly(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	old, fresh := filepath.Join(dir, "coordinator-11.json"), filepath.Join(dir, "coordinator-12.json")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte(`{"port": 1`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-time.Minute)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	Reap(launch.System{}, dir, tmp, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("an old unreadable state file was kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("a fresh unreadable state file was reaped: %v", err)
	}
}

// The guard's clean-up after its coordinator died keeps the port too.
func TestGuardKeepsTheDeadCoordinatorsPort(t *testing.T) {
	dir := t.TempDir()
	pid := actortest.DeadPID(t)
	path := writeState(t, dir, state.File{Port: 4324, PID: pid, PPID: 88})
	r, w, _ := os.Pipe()
	w.Close() // it died
	Guard(r, GuardSpec{CoordinatorPID: pid, StateFile: path, TempRoot: t.TempDir()}, launch.System{}, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("state file kept: %v", err)
	}
	if list := endedIn(t, dir); len(list) != 1 || list[0].Port != 4324 || list[0].PID != pid || list[0].PPID != 88 {
		t.Fatalf("record %+v", list)
	}
}

// The guard removes the leases of worlds its dead coordinator served (they
// ended with its browser), and leaves another coordinator's.
func TestGuardRemovesTheDeadCoordinatorsLeases(t *testing.T) {
	dir := t.TempDir()
	pid := actortest.DeadPID(t)
	path := writeState(t, dir, state.File{Port: 4325, PID: pid})
	ours, err := leases.Take(dir, leases.Lease{Coordinator: pid, Holder: os.Getpid(), World: "agent-1"})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := leases.Take(dir, leases.Lease{Coordinator: os.Getpid(), Holder: os.Getpid(), World: "agent-2"})
	if err != nil {
		t.Fatal(err)
	}
	r, w, _ := os.Pipe()
	w.Close() // it died
	Guard(r, GuardSpec{CoordinatorPID: pid, StateFile: path, TempRoot: t.TempDir()}, launch.System{}, zerolog.New(zerolog.NewTestWriter(t)))
	if _, err := os.Stat(ours); !os.IsNotExist(err) {
		t.Errorf("the dead coordinator's lease was kept: %v", err)
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Errorf("another coordinator's lease: %v", err)
	}
}

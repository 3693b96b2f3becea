//go:build !windows

package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// Issue 12 (items 5 and 7) through the package's exported API.

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to give a file to another user")
	}
}

func ownerOf(t *testing.T, path string) int {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(info.Sys().(*syscall.Stat_t).Uid)
}

// PrepareDir creates the state dir 0700 and refuses one that group or
// others may write to, or another user's, naming the dir, the mode or the
// owner, and what to do.
func TestPrepareDirCreatesPrivateAndRefusesOthers(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "a", "state")
	if err := PrepareDir(fresh); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(fresh); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("created %v %v, want mode 0700", info, err)
	}
	for _, mode := range []os.FileMode{0o720, 0o702, 0o770, 0o733, 0o777} {
		dir := filepath.Join(t.TempDir(), "s")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		err := PrepareDir(dir)
		if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), fmt.Sprintf("%04o", mode)) ||
			!hasFix(err, remedy.Say("remove it")) || !hasFix(err, remedy.Change(remedy.StateDir)) {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	needRoot(t)
	theirs := t.TempDir()
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := PrepareDir(theirs); err == nil || !strings.Contains(err.Error(), "uid 65534") || !hasFix(err, remedy.Change(remedy.StateDir)) {
		t.Fatalf("another user's dir: %v", err)
	}
}

// DefaultDir does not take an XDG_RUNTIME_DIR that is not the user's own.
func TestDefaultDirSkipsAnotherUsersRuntimeDir(t *testing.T) {
	mine := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", mine)
	if got := DefaultDir(); got != filepath.Join(mine, "cdpvisor") {
		t.Fatalf("DefaultDir %s with my own XDG_RUNTIME_DIR %s", got, mine)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	want := filepath.Join(os.TempDir(), fmt.Sprintf("cdpvisor-%d", os.Geteuid()))
	if got := DefaultDir(); got != want {
		t.Fatalf("DefaultDir %s without XDG_RUNTIME_DIR, want %s", got, want)
	}
	needRoot(t)
	theirs := t.TempDir()
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", theirs)
	if got := DefaultDir(); got != want {
		t.Fatalf("DefaultDir %s with another user's XDG_RUNTIME_DIR, want %s", got, want)
	}
}

// A stopping coordinator never re-points or removes a state.json another
// user owns, and never points state.json at another user's state file.
func TestStopLeavesAnotherUsersFilesAlone(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	// A live coordinator's file (our parent's pid), newer, but another user's.
	theirs, _ := json.Marshal(File{Port: 5000, PID: os.Getppid(), StartedAt: time.Now().Add(time.Hour)})
	theirPath := FileName(dir, os.Getppid())
	if err := os.WriteFile(theirPath, theirs, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirPath, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	serveAndStop := func(a *Actor, before func()) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		if err := a.Write(); err != nil {
			t.Fatal(err)
		}
		before()
		go func() { done <- a.Serve(ctx) }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
	pointer := filepath.Join(dir, PointerFile)
	a := New(Spec{Dir: dir, State: File{Port: 4000, PID: os.Getpid(), StartedAt: time.Now()}})
	serveAndStop(a, func() {})
	if s, err := Read(pointer); err == nil {
		t.Fatalf("state.json points at another user's coordinator: %+v", s)
	}
	b := New(Spec{Dir: dir, State: File{Port: 4001, PID: os.Getpid(), StartedAt: time.Now()}})
	serveAndStop(b, func() {
		if err := os.Chown(pointer, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Stat(pointer); err != nil || ownerOf(t, pointer) != 65534 {
		t.Fatalf("another user's state.json was removed or replaced: %v", err)
	}
	_ = os.Remove(pointer)
	_ = os.Remove(theirPath)
}

// The record of ended coordinators: the same parent first, then the most
// recent; a busy port is passed over and kept; the port taken leaves it.
func TestTakeOverPortPrefersTheSameParentThenTheMostRecent(t *testing.T) {
	dir := t.TempDir()
	ports := freePorts(t, 3)
	for i, e := range []File{{Port: ports[0], PID: 101, PPID: 7}, {Port: ports[1], PID: 102, PPID: 8}, {Port: ports[2], PID: 103, PPID: 9}} {
		if err := RecordEnded(dir, e); err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			time.Sleep(5 * time.Millisecond) // distinct ended_at
		}
	}
	listen := func(port int) (net.Listener, error) { return net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)) }
	l, e, ok := TakeOverPort(dir, 8, listen)
	if !ok || e.Port != ports[1] || e.PID != 102 {
		t.Fatalf("same parent 8: %+v %v, want port %d of pid 102", e, ok, ports[1])
	}
	l.Close()
	busy, err := listen(ports[2]) // the most recent one's port is taken
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	l, e, ok = TakeOverPort(dir, 1, listen)
	if !ok || e.Port != ports[0] {
		t.Fatalf("another parent, most recent busy: %+v %v, want port %d", e, ok, ports[0])
	}
	l.Close()
	if _, _, ok := TakeOverPort(dir, 1, listen); ok {
		t.Fatal("took a busy port")
	}
	busy.Close()
	l, e, ok = TakeOverPort(dir, 1, listen)
	if !ok || e.Port != ports[2] {
		t.Fatalf("the busy port, once free: %+v %v", e, ok)
	}
	l.Close()
	if _, err := os.Stat(filepath.Join(dir, EndedFile)); !os.IsNotExist(err) {
		t.Fatalf("the record outlived its last entry: %v", err)
	}
}

// Entries older than a day are pruned; the record keeps a few only.
func TestEndedRecordIsPrunedAndCapped(t *testing.T) {
	dir := t.TempDir()
	old := []Ended{{Port: 4100, PID: 1, EndedAt: time.Now().Add(-25 * time.Hour)}}
	data, _ := json.Marshal(old)
	if err := WriteFileAtomic(filepath.Join(dir, EndedFile), data); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if err := RecordEnded(dir, File{Port: 5000 + i, PID: 1000 + i}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, EndedFile))
	if err != nil {
		t.Fatal(err)
	}
	var list []Ended
	if err := json.Unmarshal(data, &list); err != nil || len(list) == 0 || len(list) > 16 {
		t.Fatalf("record of %d entries: %v", len(list), err)
	}
	for _, e := range list {
		if e.Port == 4100 || e.Port < 5040-len(list) {
			t.Fatalf("kept %+v: not among the most recent", e)
		}
	}
}

// A record another user owns is neither read nor replaced.
func TestEndedRecordOfAnotherUserIsLeftAlone(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	port := freePorts(t, 1)[0]
	data, _ := json.Marshal([]Ended{{Port: port, PID: 5, EndedAt: time.Now()}})
	path := filepath.Join(dir, EndedFile)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	listen := func(port int) (net.Listener, error) { return net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)) }
	if l, _, ok := TakeOverPort(dir, 1, listen); ok {
		l.Close()
		t.Fatal("took a port from another user's record")
	}
	if err := RecordEnded(dir, File{Port: 4000, PID: 6}); err == nil {
		t.Error("recorded into another user's record without a word")
	}
	if ownerOf(t, path) != 65534 {
		t.Fatal("another user's record was replaced")
	}
}

func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// hasFix says whether err carries fix among its remedies.
func hasFix(err error, fix remedy.Fix) bool {
	for _, f := range remedy.Fixes(err) {
		if f == fix {
			return true
		}
	}
	return false
}

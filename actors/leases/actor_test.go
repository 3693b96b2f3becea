package leases

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

var errGone = errors.New("unknown world")

// fixture is a LeasesActor of coordinator pid 100 over a state dir, with
// pids alive as the test says and the worlds it closed recorded.
type fixture struct {
	t      *testing.T
	dir    string
	mu     sync.Mutex
	alive  map[int]bool
	closed []string // "instance/world"
	stop   func()
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), alive: map[int]bool{100: true}}
	a := New(Spec{StateDir: f.dir, PID: 100, Every: 10 * time.Millisecond,
		Alive: func(pid int) bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.alive[pid]
		},
		Close: func(_ context.Context, instance, world string) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.closed = append(f.closed, instance+"/"+world)
			if world == "gone" {
				return errGone
			}
			return nil
		},
		Gone: func(err error) bool { return errors.Is(err, errGone) },
		Log:  zerolog.New(zerolog.NewTestWriter(t)),
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx) }()
	var once sync.Once
	f.stop = func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
	t.Cleanup(f.stop)
	return f
}

func (f *fixture) take(l Lease) string {
	f.t.Helper()
	f.setAlive(l.Holder, true)
	p, err := Take(f.dir, l)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) setAlive(pid int, alive bool) {
	f.mu.Lock()
	f.alive[pid] = alive
	f.mu.Unlock()
}

func (f *fixture) closedWorlds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.closed...)
}

// gone waits until path is removed.
func (f *fixture) gone(path string) {
	f.t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(end) {
			f.t.Fatalf("%s is still there", path)
		}
	}
}

// A world is closed once the process holding it has ended, and its lease
// goes; a held world stays open.
func TestWorldClosedWhenItsHolderEnds(t *testing.T) {
	f := newFixture(t)
	held := f.take(Lease{Coordinator: 100, Holder: 201, World: "agent-a"})
	ended := f.take(Lease{Coordinator: 100, Holder: 202, Instance: "inst_1_x", World: "agent-b"})
	time.Sleep(50 * time.Millisecond)
	if got := f.closedWorlds(); len(got) != 0 {
		t.Fatalf("closed %v while their holders live", got)
	}
	f.setAlive(202, false)
	f.gone(ended)
	if got := f.closedWorlds(); len(got) != 1 || got[0] != "inst_1_x/agent-b" {
		t.Fatalf("closed %v, want inst_1_x/agent-b", got)
	}
	if _, err := os.Stat(held); err != nil {
		t.Fatalf("the held lease: %v", err)
	}
	// A world closed already (or never made) is no trouble.
	gone := f.take(Lease{Coordinator: 100, Holder: 203, World: "gone"})
	f.setAlive(203, false)
	f.gone(gone)
}

// Another coordinator's leases are its own while it lives, and removed
// (never closed here) once it is gone; malformed files go.
func TestOtherCoordinatorsLeases(t *testing.T) {
	f := newFixture(t)
	f.setAlive(300, true)
	theirs := f.take(Lease{Coordinator: 300, Holder: 301, World: "theirs"})
	f.setAlive(301, false)
	bad := filepath.Join(Dir(f.dir), "world-1-2-x.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.gone(bad)
	if _, err := os.Stat(theirs); err != nil {
		t.Fatalf("a live coordinator's lease: %v", err)
	}
	f.setAlive(300, false)
	f.gone(theirs)
	if got := f.closedWorlds(); len(got) != 0 {
		t.Fatalf("closed %v for another coordinator", got)
	}
}

// A coordinator that stops removes its leases, and their folder once
// empty: its worlds end with it.
func TestStopRemovesOwnLeases(t *testing.T) {
	f := newFixture(t)
	f.take(Lease{Coordinator: 100, Holder: 201, World: "agent-a"})
	f.stop()
	if _, err := os.Stat(Dir(f.dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the leases folder stays: %v", err)
	}
	if got := f.closedWorlds(); len(got) != 0 {
		t.Fatalf("closed %v at stop", got)
	}
}

package watchdog

import (
	"context"
	"io"
	"os"
	"os/exec"
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

// pipeGuard is the coordinator's side of the guard's pipe as the
// WatchdogActor writes it; mute leaves out what a coordinator killed right
// after the spawn never wrote (the browser's pid).
type pipeGuard struct {
	w    io.Writer
	last int
	mute bool
}

func (g *pipeGuard) Launching(_ context.Context, f launch.Facts) (launch.Guarded, error) {
	g.last++
	_, err := g.w.Write(message{Op: opLaunch, ID: g.last, TempDir: f.TempDir, Profile: f.UserDataDir, TempProfile: f.TempProfile}.line())
	return pipeGuarded{g: g, id: g.last}, err
}

type pipeGuarded struct {
	g  *pipeGuard
	id int
}

func (p pipeGuarded) Spawned(id proc.BrowserIdentity) {
	if !p.g.mute {
		_, _ = p.g.w.Write(message{Op: opSpawned, ID: p.id, Browser: &id}.line())
	}
}
func (p pipeGuarded) Release() { _, _ = p.g.w.Write(message{Op: opRelease, ID: p.id}.line()) }

// guardedFake launches the fake browser (a helper process of its own too)
// told to g; the test ends what is left of it in the end.
func guardedFake(t *testing.T, g launch.Guard, profile string) *launch.Process {
	t.Helper()
	p, err := chromium.Start(context.Background(), launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, UserDataDir: profile, ExtraArgs: []string{"--fake-spawn-child"}, Guard: g,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = proc.SignalGroup(p.Pid, true)
		_ = p.Stop()
		proc.WaitGroupGone(p.Pid, 2*time.Second)
		_ = os.RemoveAll(p.TempDir) // a browser let go keeps it
	})
	return p
}

// The coordinator dies (its pipe ends without bye): the guard ends the
// browser it was told of, the one whose pid it never heard (found by its
// launch's mark, helpers included, on a profile of the user's), removes
// their directories and the state file; it leaves a browser the
// coordinator let go and a process that merely has a pid it was told.
func TestGuardEndsWhatADeadCoordinatorLaunched(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	coordinator := actortest.DeadPID(t)
	stateDir := t.TempDir()
	stateFile := writeState(t, stateDir, state.File{Port: 4325, PID: coordinator})
	done := make(chan struct{})
	go func() {
		defer close(done)
		Guard(r, GuardSpec{CoordinatorPID: coordinator, StateFile: stateFile, TempRoot: t.TempDir()}, launch.System{}, zerolog.New(zerolog.NewTestWriter(t)))
	}()

	told := guardedFake(t, &pipeGuard{w: w}, "")
	neverTold := guardedFake(t, &pipeGuard{w: w, last: 100, mute: true}, filepath.Join(t.TempDir(), "user profile"))
	letGo := guardedFake(t, &pipeGuard{w: w, last: 200}, "")
	letGo.Detach()
	stranger := exec.Command("sleep", "30")
	if err := stranger.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stranger.Process.Kill(); _ = stranger.Wait() })
	id := proc.BrowserIdentity{Pid: stranger.Process.Pid, UserDataDir: "/nowhere"}
	_, _ = w.Write(message{Op: opLaunch, ID: 300, TempDir: filepath.Join(t.TempDir(), launch.TempPrefix+"1-x")}.line())
	_, _ = w.Write(message{Op: opSpawned, ID: 300, Browser: &id}.line())

	w.Close() // the coordinator died
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the guard did not finish")
	}
	for name, p := range map[string]*launch.Process{"told": told, "never told": neverTold} {
		if !exitedWithin(p, 3*time.Second) {
			t.Errorf("the browser %s still runs", name)
		}
		if left, _ := proc.WithEnv(launch.LaunchDirEnv, p.TempDir); len(left) > 0 {
			t.Errorf("processes %v of the browser %s still run", left, name)
		}
		if _, err := os.Stat(p.TempDir); !os.IsNotExist(err) {
			t.Errorf("the directory of the browser %s is still there: %v", name, err)
		}
	}
	if exitedWithin(letGo, 200*time.Millisecond) || !proc.PidAlive(stranger.Process.Pid) {
		t.Error("the guard ended a browser let go, or a process that only had a pid it was told")
	}
	if _, err := os.Stat(stateFile); !os.IsNotExist(err) {
		t.Errorf("the dead coordinator's state file is still there: %v", err)
	}
}

// A coordinator that stopped in order says bye: the guard touches nothing.
func TestGuardLeavesEverythingAfterBye(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	g := &pipeGuard{w: w}
	p := guardedFake(t, g, "")
	_, _ = w.Write(message{Op: opBye}.line())
	w.Close()
	Guard(r, GuardSpec{CoordinatorPID: actortest.DeadPID(t), TempRoot: t.TempDir()}, launch.System{}, zerolog.New(zerolog.NewTestWriter(t)))
	if exitedWithin(p, 300*time.Millisecond) {
		t.Fatal("the guard ended a browser after bye")
	}
}

// Partial downloads of a dead coordinator go, its worlds' folders' too;
// finished files stay; an instance's own folder goes once empty, with its
// emptied world folders.
func TestGuardClearsPartialDownloads(t *testing.T) {
	shared, own := t.TempDir(), filepath.Join(t.TempDir(), "inst_1")
	for _, f := range []string{filepath.Join(shared, "report.pdf"), filepath.Join(shared, "a.crdownload"),
		filepath.Join(shared, "0f8fad5b-d9cb-469f-a165-70867728950e"), filepath.Join(own, "b.crdownload"),
		filepath.Join(shared, "alice", "c.crdownload"), filepath.Join(shared, "alice", "kept.pdf"), filepath.Join(own, "bob", "d.crdownload")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, w, _ := os.Pipe()
	_, _ = w.Write(message{Op: opDownloads, Dir: shared}.line())
	_, _ = w.Write(message{Op: opDownloads, Dir: own, Tidy: true}.line())
	w.Close()
	Guard(r, GuardSpec{CoordinatorPID: actortest.DeadPID(t), TempRoot: t.TempDir()}, launch.System{}, zerolog.New(zerolog.NewTestWriter(t)))
	entries, _ := os.ReadDir(shared)
	if len(entries) != 2 || entries[0].Name() != "alice" || entries[1].Name() != "report.pdf" {
		t.Errorf("the shared folder holds %v, want alice and report.pdf", entries)
	}
	if entries, _ := os.ReadDir(filepath.Join(shared, "alice")); len(entries) != 1 || entries[0].Name() != "kept.pdf" {
		t.Errorf("the world's folder holds %v, want kept.pdf alone", entries)
	}
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Errorf("the instance's emptied folder is still there: %v", err)
	}
}

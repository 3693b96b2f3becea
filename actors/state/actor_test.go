package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStateActorWritesAtomicallyAndRemoves(t *testing.T) {
	dir := t.TempDir()
	a := New(Spec{Dir: dir, State: File{Port: 4000, PID: os.Getpid(), Endpoint: "http://127.0.0.1:4000"}})
	if err := a.Write(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{filepath.Base(a.Path()), PointerFile} {
		s, err := Read(filepath.Join(dir, name))
		if err != nil || s.Port != 4000 {
			t.Fatalf("%s: %+v %v", name, s, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("temporary files left by the atomic write: %v", entries)
	}
	a.remove()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left after remove: %v", entries)
	}
}

func TestStateActorLeavesAnotherCoordinatorsPointer(t *testing.T) {
	dir := t.TempDir()
	a := New(Spec{Dir: dir, State: File{Port: 4000, PID: os.Getpid()}})
	if err := a.Write(); err != nil {
		t.Fatal(err)
	}
	other, _ := json.Marshal(File{Port: 5000, PID: 1})
	if err := WriteFileAtomic(filepath.Join(dir, PointerFile), other); err != nil {
		t.Fatal(err)
	}
	a.remove()
	if s, err := Read(filepath.Join(dir, PointerFile)); err != nil || s.Port != 5000 {
		t.Fatalf("the newer coordinator's pointer was touched: %+v %v", s, err)
	}
}

// The well-known state.json moves to the next live coordinator when the one
// it points at stops; with none left, it goes.
func TestPointerMovesToTheNextLiveCoordinator(t *testing.T) {
	dir := t.TempDir()
	older := File{Port: 5000, PID: os.Getppid(), StartedAt: time.Now().Add(-time.Hour)} // alive: our parent
	data, _ := json.Marshal(older)
	if err := os.WriteFile(FileName(dir, older.PID), data, 0o644); err != nil {
		t.Fatal(err)
	}
	dead := File{Port: 6000, PID: 999999999, StartedAt: time.Now()}
	data, _ = json.Marshal(dead)
	_ = os.WriteFile(FileName(dir, dead.PID), data, 0o644)
	a := New(Spec{Dir: dir, State: File{Port: 4000, PID: os.Getpid(), StartedAt: time.Now()}})
	if err := a.Write(); err != nil {
		t.Fatal(err)
	}
	a.remove()
	if s, err := Read(filepath.Join(dir, PointerFile)); err != nil || s.Port != 5000 {
		t.Fatalf("pointer %+v %v, want the live older coordinator (5000), not the dead newer one", s, err)
	}
	_ = os.Remove(FileName(dir, older.PID))
	b := New(Spec{Dir: dir, State: File{Port: 4001, PID: os.Getpid(), StartedAt: time.Now()}})
	_ = b.Write()
	b.remove()
	if _, err := os.Stat(filepath.Join(dir, PointerFile)); !os.IsNotExist(err) {
		t.Fatalf("pointer kept with no live coordinator: %v", err)
	}
}

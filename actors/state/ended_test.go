package state

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"slices"
	"sync"
	"testing"
)

// Coordinators killed at once each keep their port: the guards recording
// them at the same time lose none of the others' (each read-modify-write
// of the record is alone).
func TestEndedRecordsOfConcurrentDeathsAreAllKept(t *testing.T) {
	for round := 0; round < 20; round++ {
		dir := t.TempDir()
		var wg sync.WaitGroup
		for i := 1; i <= endedMax; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := RecordEnded(dir, File{Port: 4000 + i, PID: 100 + i}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if got := readEnded(dir); len(got) != endedMax {
			t.Fatalf("round %d: %d of %d ports kept: %+v", round, len(got), endedMax, got)
		}
	}
}

// A dead coordinator's guard and a new coordinator's reaper both end its
// state file: the port is recorded once, and a port the new coordinator
// took over is never written back.
func TestEndDeadAndTakeOverNeverWriteBackATakenPort(t *testing.T) {
	for round := 0; round < 50; round++ {
		dir := t.TempDir()
		dead := File{Port: 40000 + round, PID: 99999, PPID: 7}
		data, _ := json.Marshal(dead)
		path := FileName(dir, dead.PID)
		if err := WriteFileAtomic(path, data); err != nil {
			t.Fatal(err)
		}
		fake := func(port int) (net.Listener, error) {
			if port != dead.Port {
				return nil, errors.New("not that one")
			}
			return net.Listen("tcp", "127.0.0.1:0") // stands in for the port taken
		}
		var wg sync.WaitGroup
		var took bool
		for _, end := range []func(){
			func() { _ = EndDead(path, dead) }, // the guard
			func() { _ = EndDead(path, dead) }, // the reaper
			func() {
				if l, _, ok := TakeOverPort(dir, 7, fake); ok {
					took = true
					l.Close()
				}
			},
		} {
			wg.Add(1)
			go func() { defer wg.Done(); end() }()
		}
		wg.Wait()
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("round %d: the state file is still there", round)
		}
		listed := slices.ContainsFunc(readEnded(dir), func(e Ended) bool { return e.Port == dead.Port })
		if took == listed {
			t.Fatalf("round %d: port taken %v, still listed %v", round, took, listed)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 1 || (len(entries) == 1 && entries[0].Name() != EndedFile) {
			t.Fatalf("round %d: left %v", round, entries)
		}
	}
}

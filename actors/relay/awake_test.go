package relay

import (
	"runtime"
	"testing"
	"time"
)

// The keeper runs while frames flow, with one P more, and ends by itself
// once they stop, putting GOMAXPROCS back.
func TestKeeperRunsWhileFramesFlowAndEnds(t *testing.T) {
	if !canKeepAwake {
		t.Skip("the keeper is used on Linux only")
	}
	procs := runtime.GOMAXPROCS(0)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && runtime.GOMAXPROCS(0) != procs+1 {
		schedulerAwake.touch()
		time.Sleep(time.Millisecond)
	}
	if !schedulerAwake.running.Load() || runtime.GOMAXPROCS(0) != procs+1 {
		t.Fatalf("keeper running %v with GOMAXPROCS %d; want running with %d", schedulerAwake.running.Load(), runtime.GOMAXPROCS(0), procs+1)
	}
	for time.Now().Before(deadline) && schedulerAwake.running.Load() {
		time.Sleep(10 * time.Millisecond)
	}
	if schedulerAwake.running.Load() {
		t.Fatal("the keeper still runs with no frames for 5 s")
	}
	for time.Now().Before(deadline) && runtime.GOMAXPROCS(0) != procs {
		time.Sleep(time.Millisecond) // restored just after running was cleared
	}
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Fatalf("GOMAXPROCS %d after the keeper ended, want %d back", got, procs)
	}
}

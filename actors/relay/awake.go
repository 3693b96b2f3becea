package relay

import (
	"os"
	"runtime"
	"sync/atomic"
	"time"
)

// The Go runtime's monitor thread (sysmon) sleeps deeply once every P is
// idle, and the next system call wakes it with a futex; it then polls at
// 20 µs for a while and sleeps deeply again. A relay goes idle between
// every two frames of a request and its answer, so each hop paid for that
// wake-up and for an extra thread on the CPU: on 2 cores with the Node
// client, most of what separated a Go relay from a Node one (numbers in
// docs/performance.md). While frames flow, schedulerAwake keeps one P busy
// sleeping in the kernel, so sysmon never finds every P idle; it stops by
// itself once no frame came for awakeIdleFor. The monitor thread is one per
// process, and so is this.
var schedulerAwake awakeKeeper

// awakeIdleFor is how long the keeper goes on without a frame.
const awakeIdleFor = 100 * time.Millisecond

type awakeKeeper struct {
	active  atomic.Bool // a frame went through since the keeper last looked
	running atomic.Bool // the keeper goroutine runs
}

// touch notes a frame, starting the keeper if it does not run. Two loads
// when it runs: the fast path pays nothing else.
func (k *awakeKeeper) touch() {
	if !canKeepAwake {
		return
	}
	if !k.active.Load() {
		k.active.Store(true)
	}
	if !k.running.Load() && k.running.CompareAndSwap(false, true) {
		go k.keep()
	}
}

// keep sleeps in the kernel while frames flow. It owns itself: it ends
// after awakeIdleFor without a frame.
func (k *awakeKeeper) keep() {
	// The keeper's P sits in a system call; with every other P busy,
	// sysmon takes it back and hands it to a fresh spinning thread, which
	// costs what the keeper saves. One P more than the default while it
	// runs leaves an idle one, and sysmon leaves the keeper's alone.
	procs := runtime.GOMAXPROCS(0)
	for {
		runtime.GOMAXPROCS(procs + 1)
		last := time.Now()
		for {
			sleepInKernel() // a signal may end it early: time counts, not slices
			// A goroutine on one scheduling tick for 10 ms is preempted by a
			// signal: yield between slices instead.
			runtime.Gosched()
			now := time.Now()
			if k.active.Swap(false) {
				last = now
			} else if now.Sub(last) > awakeIdleFor {
				break
			}
		}
		restoreProcs(procs) // before the next keeper can read it
		k.running.Store(false)
		// A frame between the last look and the store above saw the
		// keeper running and did not start one: go on for it.
		if !k.active.Load() || !k.running.CompareAndSwap(false, true) {
			return
		}
	}
}

// restoreProcs puts GOMAXPROCS back: the value the user set, or the
// runtime's own default (which follows the CPU quota).
func restoreProcs(procs int) {
	if os.Getenv("GOMAXPROCS") != "" {
		runtime.GOMAXPROCS(procs)
		return
	}
	runtime.SetDefaultGOMAXPROCS()
}

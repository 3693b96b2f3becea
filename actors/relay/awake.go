package relay

import (
	"runtime"
	"sync/atomic"
)

// The Go runtime's monitor thread (sysmon) sleeps deeply once every P is
// idle, and the next system call wakes it with a futex; it then polls at
// 20 µs for a while and sleeps deeply again. A relay goes idle between
// every two frames of a request and its answer, so each frame paid for
// that wake-up and the extra thread on the CPU: measured on 2 cores with
// the Node client, about 70 µs of the round trip (see docs/performance.md).
// While frames flow, schedulerAwake keeps one P in a short system call so
// that sysmon never finds every P idle; it stops by itself once no frame
// came for awakeIdleAfter. The monitor thread is one per process, and so is
// this.
var schedulerAwake awakeKeeper

// awakeIdleAfter is how many sleep slices without a frame end the keeper.
const awakeIdleAfter = 10

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

// keep sleeps in system calls while frames flow. It owns itself: it ends
// after awakeIdleAfter slices without a frame.
func (k *awakeKeeper) keep() {
	// With one P, holding it in a system call would leave nothing to run
	// the relays until sysmon takes it back.
	if runtime.GOMAXPROCS(0) < 2 {
		k.running.Store(false)
		return
	}
	for {
		for idle := 0; idle < awakeIdleAfter; {
			sleepInSyscall()
			// A goroutine that stays on one scheduling tick for 10 ms loses
			// its P to sysmon even in a short call: yield between slices.
			runtime.Gosched()
			if k.active.Swap(false) {
				idle = 0
			} else {
				idle++
			}
		}
		k.running.Store(false)
		// A frame between the last look and the store above saw the
		// keeper running and did not start one: go on for it.
		if !k.active.Load() || !k.running.CompareAndSwap(false, true) {
			return
		}
	}
}

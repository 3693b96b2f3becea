package relay

import "syscall"

const canKeepAwake = true

// awakeSlice is one sleep of the keeper: under the 10 ms after which
// sysmon takes a P back from a system call even with idle Ps around.
const awakeSlice = 5_000_000 // ns

// sleepInKernel sleeps in a system call (syscall.Nanosleep enters one;
// time.Sleep would park the goroutine and free its P). A raw system call,
// which keeps the P running, was tried: the garbage collector then waited
// for the sleeper to stop the world (pauses up to 33 ms).
func sleepInKernel() {
	ts := syscall.NsecToTimespec(awakeSlice)
	_ = syscall.Nanosleep(&ts, nil)
}

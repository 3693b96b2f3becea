package relay

import (
	"syscall"
	"unsafe"
)

const canKeepAwake = true

// awakeSlice is one sleep of the keeper.
const awakeSlice = 9_000_000 // ns: under the 10 ms after which sysmon preempts a goroutine

// sleepInSyscall sleeps in the kernel without telling the scheduler (a raw
// system call): the P stays running, so sysmon neither deep-sleeps nor
// takes it back. A preemption signal ends the sleep early (EINTR).
func sleepInSyscall() {
	ts := syscall.NsecToTimespec(awakeSlice)
	_, _, _ = syscall.RawSyscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
}

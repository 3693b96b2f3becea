package relay

import "syscall"

const canKeepAwake = true

const awakeSlice = 5_000_000

func sleepInKernel() {
	ts := syscall.NsecToTimespec(awakeSlice)
	_ = syscall.Nanosleep(&ts, nil)
}

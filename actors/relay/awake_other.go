//go:build !linux

package relay

// Elsewhere the keeper is not used: measured only on Linux.
const canKeepAwake = false

func sleepInKernel() {}

//go:build linux

package main

import (
	"os"
	"testing"
)

func TestParseProcStatus(t *testing.T) {
	text := "Name:\tcdpvisor\nVmPeak:\t  1261000 kB\nVmHWM:\t   25012 kB\nVmRSS:\t   12345 kB\nThreads:\t8\n"
	m, err := parseProcStatus([]byte(text))
	if err != nil || m.RSSkB != 12345 || m.HWMkB != 25012 {
		t.Errorf("= %+v, %v", m, err)
	}
	if _, err := parseProcStatus([]byte("Name:\tkthread\n")); err == nil {
		t.Error("a status without VmRSS (kernel thread) accepted")
	}
	if _, err := parseProcStatus([]byte("VmRSS:\tlots kB\nVmHWM:\t1 kB\n")); err == nil {
		t.Error("a bad number accepted")
	}
}

func TestReadProcMemSelf(t *testing.T) {
	m, err := readProcMem(os.Getpid())
	if err != nil || m.RSSkB <= 0 || m.HWMkB < m.RSSkB {
		t.Errorf("own memory: %+v, %v", m, err)
	}
}

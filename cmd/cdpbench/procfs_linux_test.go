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

func TestParseStatPPID(t *testing.T) {
	if p, ok := parseStatPPID([]byte("4242 (a (weird) name) S 17 4242 4242 0 -1 4194560")); !ok || p != 17 {
		t.Errorf("= %d, %v", p, ok)
	}
	if _, ok := parseStatPPID([]byte("4242 (x")); ok {
		t.Error("a cut line accepted")
	}
}

func TestParseRollup(t *testing.T) {
	text := "55ac0d2d8000-7ffc192bb000 ---p 00000000 00:00 0  [rollup]\nRss:  1640 kB\nPss:  230 kB\nPss_Dirty: 116 kB\n" +
		"Pss_Anon: 116 kB\nPss_File: 114 kB\nPss_Shmem: 0 kB\nShared_Clean: 1488 kB\nPrivate_Clean: 36 kB\nPrivate_Dirty: 116 kB\n"
	r, err := parseRollup([]byte(text))
	want := rollup{RSSkB: 1640, PSSkB: 230, PSSAnonkB: 116, PSSFilekB: 114, PrivCleankB: 36, PrivDirtykB: 116}
	if err != nil || r != want {
		t.Errorf("= %+v, %v", r, err)
	}
	if _, err := parseRollup([]byte("Anonymous: 1 kB\n")); err == nil {
		t.Error("a rollup without Pss accepted")
	}
}

func TestOwnProcessTables(t *testing.T) {
	table, err := procTable()
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	if table[self] != os.Getppid() {
		t.Errorf("ppid of self = %d, want %d", table[self], os.Getppid())
	}
	if d := descendants(table, os.Getppid()); len(d) < 2 {
		t.Errorf("the test's parent has no descendants: %v", d)
	}
	if r, err := readRollup(self); err != nil || r.PSSkB <= 0 || r.RSSkB < r.PSSkB {
		t.Errorf("own rollup: %+v, %v", r, err)
	}
	found := false
	for _, pid := range pidsWithExe(exeOf(self)) {
		found = found || pid == self
	}
	if !found {
		t.Errorf("pidsWithExe(%q) lacks self", exeOf(self))
	}
	if got := processesWithEnv("CDPBENCH_NO_SUCH_ENTRY=1"); len(got) != 0 {
		t.Errorf("processesWithEnv of nothing = %v", got)
	}
}

func TestFileMapping(t *testing.T) {
	s, e, ok := fileMapping("5616e3a00000-5616e3c00000 r-xp 00000000 fe:00 1234  /usr/lib/chromium/chromium")
	if !ok || s != 0x5616e3a00000 || e != 0x5616e3c00000 {
		t.Errorf("the executable: %x %x %v", s, e, ok)
	}
	if _, _, ok := fileMapping("7f00-8000 r--p 00000000 fe:00 99 /usr/share/fonts/a b.ttf"); !ok {
		t.Error("a path with a space refused")
	}
	for _, line := range []string{
		"7f00-8000 rw-s 00000000 00:01 77 /dev/shm/.org.chromium.Chromium.x (deleted)",
		"7f00-8000 rw-s 00000000 00:01 78 /memfd:shared_memory (deleted)",
		"7f00-8000 rw-p 00000000 00:00 0 [heap]",
		"7f00-8000 rw-p 00000000 00:00 0",
		"7f00-8000 r--s 00000000 00:05 3 /dev/dri/renderD128",
	} {
		if _, _, ok := fileMapping(line); ok {
			t.Errorf("%q taken for a file", line)
		}
	}
}

func TestUniqueFileKBSelf(t *testing.T) {
	kb, ok := uniqueFileKB([]int{os.Getpid()})
	if !ok {
		t.Skip("page frames not readable (not root)")
	}
	if kb <= 0 {
		t.Errorf("no file pages of the test binary: %d kB", kb)
	}
	twice, _ := uniqueFileKB([]int{os.Getpid(), os.Getpid()})
	if twice > kb*3/2 { // pages may fault in between, but not double
		t.Errorf("a process twice counts %d kB, once %d kB", twice, kb)
	}
}

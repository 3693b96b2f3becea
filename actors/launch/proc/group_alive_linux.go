package proc

import (
	"bytes"
	"os"
	"strconv"
)

// GroupAlive reports whether a live (non-zombie) process is still in the
// process group pgid. Zombies are ignored: whoever reaps them is not us.
func GroupAlive(pgid int) bool {
	alive := false
	eachInGroup(pgid, func(string, [][]byte) bool { alive = true; return false })
	return alive
}

// GroupRSS is the resident memory of a browser's whole process tree: every
// live process of its group (renderers, GPU and utility processes share
// the browser's group), in bytes.
func GroupRSS(pgid int) (int64, error) {
	var pages int64
	eachInGroup(pgid, func(_ string, f [][]byte) bool {
		rss, _ := strconv.ParseInt(string(f[21]), 10, 64)
		pages += rss
		return true
	})
	return pages * int64(os.Getpagesize()), nil
}

// eachInGroup calls visit with the pid and the stat fields after the
// command (state ppid pgrp …) of each live process of group pgid, until
// visit returns false.
func eachInGroup(pgid int, visit func(pid string, fields [][]byte) bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid pgrp … (rss is
		// the 22nd of them, in pages).
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 22 || string(f[0]) == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(string(f[2])); g != pgid {
			continue
		}
		if !visit(e.Name(), f) {
			return
		}
	}
}

package chrome

import (
	"bytes"
	"os"
	"strconv"
)

// groupAlive reports whether a live (non-zombie) process is still in the
// process group pgid. Zombies are ignored: whoever reaps them is not us.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid pgrp ...
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 3 || string(f[0]) == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(string(f[2])); g == pgid {
			return true
		}
	}
	return false
}

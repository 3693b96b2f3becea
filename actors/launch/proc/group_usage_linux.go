package proc

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"time"
)

// userHZ is the kernel's clock tick for the times in /proc/PID/stat:
// 100 on every Linux cdpvisor runs on (USER_HZ, fixed by the ABI).
const userHZ = 100

// GroupCPU is the processor time a browser's whole process tree has used
// (user and system, every live process of its group): its rate over a
// while is how busy the browser is.
func GroupCPU(pgid int) (time.Duration, error) {
	var ticks int64
	eachInGroup(pgid, func(_ string, f [][]byte) bool {
		// utime and stime are the 12th and 13th fields after the command.
		u, _ := strconv.ParseInt(string(f[11]), 10, 64)
		s, _ := strconv.ParseInt(string(f[12]), 10, 64)
		ticks += u + s
		return true
	})
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// GroupPSS is the proportional memory of a browser's whole process tree:
// each page its processes share counted once between them, which RSS
// counts in every one. A process whose smaps_rollup cannot be read counts
// its RSS.
func GroupPSS(pgid int) (int64, error) {
	var total int64
	page := int64(os.Getpagesize())
	eachInGroup(pgid, func(pid string, f [][]byte) bool {
		if pss, ok := rollupPSS(pid); ok {
			total += pss
		} else {
			rss, _ := strconv.ParseInt(string(f[21]), 10, 64)
			total += rss * page
		}
		return true
	})
	return total, nil
}

// rollupPSS reads the Pss line of /proc/PID/smaps_rollup, in bytes.
func rollupPSS(pid string) (int64, bool) {
	file, err := os.Open("/proc/" + pid + "/smaps_rollup")
	if err != nil {
		return 0, false
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("Pss:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		return kb * 1024, err == nil
	}
	return 0, false
}

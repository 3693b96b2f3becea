package pacing

import (
	"slices"
	"time"
)

// waitWindow is how long the loads let go in the last minute waited.
type waitWindow struct{ waits []wait }

type wait struct {
	at time.Time
	d  time.Duration
}

// waitSpan is the window the pressure's waited_ms tells of.
const waitSpan = time.Minute

// maxWaits bounds the window's memory: a crowd past it tells of its last
// loads, which is what the pressure is about.
const maxWaits = 8192

func (w *waitWindow) add(at time.Time, d time.Duration) {
	w.trim(at)
	if len(w.waits) == maxWaits {
		w.waits = w.waits[1:]
	}
	w.waits = append(w.waits, wait{at: at, d: d})
}

func (w *waitWindow) trim(now time.Time) {
	i := 0
	for i < len(w.waits) && now.Sub(w.waits[i].at) > waitSpan {
		i++
	}
	w.waits = w.waits[i:]
}

// quantiles are the median and the 99th percentile of the waits of the
// last minute, and how many there were.
func (w *waitWindow) quantiles(now time.Time) (p50, p99 time.Duration, n int) {
	w.trim(now)
	if len(w.waits) == 0 {
		return 0, 0, 0
	}
	ds := make([]time.Duration, len(w.waits))
	for i, x := range w.waits {
		ds[i] = x.d
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration { return ds[min(len(ds)-1, int(q*float64(len(ds))))] }
	return at(0.50), at(0.99), len(ds)
}

// cpuRate is an instance's browser's processor use, from its last two
// samples of the same browser (a new pid starts again).
type cpuRate struct {
	pid        int
	prev, last cpuPoint
}

type cpuPoint struct {
	at  time.Time
	cpu time.Duration
}

func (c *cpuRate) add(pid int, at time.Time, cpu time.Duration) {
	if pid != c.pid {
		*c = cpuRate{pid: pid, last: cpuPoint{at: at, cpu: cpu}}
		return
	}
	c.prev, c.last = c.last, cpuPoint{at: at, cpu: cpu}
}

// percent is the processor time the browser used between its last two
// samples, in percent of one processor (200 is two busy processors).
func (c *cpuRate) percent() (float64, bool) {
	span := c.last.at.Sub(c.prev.at)
	if c.pid == 0 || c.prev.at.IsZero() || span <= 0 {
		return 0, false
	}
	return 100 * float64(c.last.cpu-c.prev.cpu) / float64(span), true
}

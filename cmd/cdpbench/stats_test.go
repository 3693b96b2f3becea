package main

import (
	"testing"
	"time"
)

func durs(vs ...int) []time.Duration {
	out := make([]time.Duration, len(vs))
	for i, v := range vs {
		out[i] = time.Duration(v) * time.Microsecond
	}
	return out
}

func TestPercentileNearestRank(t *testing.T) {
	// 1..100 µs, shuffled a bit: nearest rank of p is p µs.
	var s []time.Duration
	for i := 100; i >= 1; i-- {
		s = append(s, time.Duration(i)*time.Microsecond)
	}
	for _, p := range []float64{1, 50, 90, 99, 100} {
		if got, want := percentile(s, p), time.Duration(p)*time.Microsecond; got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if s[0] != 100*time.Microsecond {
		t.Error("percentile sorted its input in place")
	}
}

func TestPercentileSmallAndEmpty(t *testing.T) {
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("empty: %v", got)
	}
	one := durs(7)
	for _, p := range []float64{0.1, 50, 99, 100} {
		if got := percentile(one, p); got != 7*time.Microsecond {
			t.Errorf("one sample p%v = %v", p, got)
		}
	}
	// 10 samples: p99 is the largest, p90 the 9th, p50 the 5th.
	s := durs(10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
	if percentile(s, 99) != 10*time.Microsecond || percentile(s, 90) != 9*time.Microsecond || percentile(s, 50) != 5*time.Microsecond {
		t.Errorf("p50/p90/p99 of 1..10 = %v %v %v", percentile(s, 50), percentile(s, 90), percentile(s, 99))
	}
}

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{durs(3), 3 * time.Microsecond},
		{durs(5, 1, 3), 3 * time.Microsecond},
		{durs(4, 1, 3, 2), 2500 * time.Nanosecond},
	}
	for _, c := range cases {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := medianFloat([]float64{3, 1, 2, 10}); got != 2.5 {
		t.Errorf("medianFloat = %v", got)
	}
}

func TestSummarize(t *testing.T) {
	s := summarize(durs(5, 1, 4, 2, 3))
	want := summary{N: 5, Min: 1, P50: 3, P90: 5, P99: 5, Max: 5}
	if s != want {
		t.Errorf("summarize = %+v, want %+v", s, want)
	}
	if (summarize(nil) != summary{}) {
		t.Error("summary of nothing is not zero")
	}
}

func TestPairedMedianDiff(t *testing.T) {
	a := durs(100, 200, 300)
	b := durs(110, 230, 305, 999) // the extra one has no pair
	if got := pairedMedianDiff(a, b); got != 10 {
		t.Errorf("paired median diff = %v, want 10", got)
	}
}

func TestRatio(t *testing.T) {
	if ratio(1, 0) != 0 || ratio(3, 2) != 1.5 {
		t.Error("ratio")
	}
}

package main

import (
	"math"
	"sort"
	"time"
)

// percentile is the nearest-rank percentile p (0 < p <= 100) of samples;
// 0 for no samples. samples is not modified.
func percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := sortedCopy(samples)
	return s[rank(len(s), p)]
}

// rank is the 0-based index of the nearest-rank percentile p among n values.
func rank(n int, p float64) int {
	r := int(math.Ceil(p/100*float64(n))) - 1
	if r < 0 {
		r = 0
	}
	if r >= n {
		r = n - 1
	}
	return r
}

func sortedCopy(samples []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

// median is the middle value (the mean of the two middle ones for an even
// count); 0 for no samples.
func median(samples []time.Duration) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := sortedCopy(samples)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianFloat is median for plain numbers.
func medianFloat(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summary is what the report keeps of a set of latencies, in microseconds.
type summary struct {
	N   int     `json:"n"`
	Min float64 `json:"min_us"`
	P50 float64 `json:"p50_us"`
	P90 float64 `json:"p90_us"`
	P99 float64 `json:"p99_us"`
	Max float64 `json:"max_us"`
}

func summarize(samples []time.Duration) summary {
	if len(samples) == 0 {
		return summary{}
	}
	s := sortedCopy(samples)
	n := len(s)
	return summary{
		N:   n,
		Min: us(s[0]),
		P50: us(s[rank(n, 50)]),
		P90: us(s[rank(n, 90)]),
		P99: us(s[rank(n, 99)]),
		Max: us(s[n-1]),
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// usDurations are latencies given in µs.
func usDurations(v []float64) []time.Duration {
	d := make([]time.Duration, len(v))
	for i, x := range v {
		d[i] = time.Duration(x * float64(time.Microsecond))
	}
	return d
}

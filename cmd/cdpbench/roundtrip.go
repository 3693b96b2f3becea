package main

import (
	"context"
	"fmt"
	"time"
)

// roundTripResult is the round-trip figure: sequential Runtime.evaluate "1"
// on one long-lived connection per side, in alternating batches.
type roundTripResult struct {
	Calls  int     `json:"calls_per_side"`
	Batch  int     `json:"batch"`
	Warmup int     `json:"warmup_per_side"`
	Direct summary `json:"direct"`
	Proxy  summary `json:"cdpvisor"`
	// Differences cdpvisor − direct of the same percentile, µs.
	DiffP50 float64 `json:"diff_p50_us"`
	DiffP90 float64 `json:"diff_p90_us"`
	DiffP99 float64 `json:"diff_p99_us"`
	// BatchDiffP50 is the median over batch pairs of p50(cdpvisor batch) −
	// p50(direct batch): a second estimate, less sensitive to drift.
	BatchDiffP50 float64 `json:"batch_pair_median_diff_p50_us"`
	// Control is cdpvisor's own browser reached directly (its
	// DevToolsActivePort), with a second session on the same page,
	// interleaved as a third side (--launch, Linux):
	// cdpvisor − control is the relay alone, without the difference
	// between two browser instances; control − direct is that difference.
	Control         *summary `json:"control,omitempty"`
	RelayDiffP50    float64  `json:"relay_only_diff_p50_us,omitempty"`
	RelayDiffP99    float64  `json:"relay_only_diff_p99_us,omitempty"`
	InstanceDiffP50 float64  `json:"instance_diff_p50_us,omitempty"`
}

// measureRoundTrip runs the round trip on direct and proxy, and on control
// too when it is not nil.
func measureRoundTrip(ctx context.Context, cfg config, d, p, control *endpointSide) (*roundTripResult, error) {
	sides := []*endpointSide{d, p}
	if control != nil {
		sides = append(sides, control)
	}
	for _, e := range sides {
		for i := 0; i < cfg.RTWarmup; i++ {
			if _, _, err := timedCall(ctx, e.client, e.session, "Runtime.evaluate", evalOne, cfg.Timeout); err != nil {
				return nil, fmt.Errorf("warm-up %s: %w", e.side, err)
			}
		}
	}
	all := make([][]time.Duration, len(sides))
	batchP50 := make([][]time.Duration, len(sides))
	for _, st := range interleave(cfg.RTCalls, cfg.RTBatch, len(sides)) {
		e := sides[st.Side]
		batch := make([]time.Duration, 0, st.N)
		for i := 0; i < st.N; i++ {
			dur, _, err := timedCall(ctx, e.client, e.session, "Runtime.evaluate", evalOne, cfg.Timeout)
			if err != nil {
				return nil, fmt.Errorf("round trip %s: %w", e.side, err)
			}
			batch = append(batch, dur)
		}
		all[st.Side] = append(all[st.Side], batch...)
		batchP50[st.Side] = append(batchP50[st.Side], percentile(batch, 50))
	}
	r := &roundTripResult{
		Calls: cfg.RTCalls, Batch: cfg.RTBatch, Warmup: cfg.RTWarmup,
		Direct: summarize(all[sideDirect]), Proxy: summarize(all[sideProxy]),
	}
	r.DiffP50 = r.Proxy.P50 - r.Direct.P50
	r.DiffP90 = r.Proxy.P90 - r.Direct.P90
	r.DiffP99 = r.Proxy.P99 - r.Direct.P99
	r.BatchDiffP50 = pairedMedianDiff(batchP50[sideDirect], batchP50[sideProxy])
	if control != nil {
		c := summarize(all[sideControl])
		r.Control = &c
		r.RelayDiffP50 = r.Proxy.P50 - c.P50
		r.RelayDiffP99 = r.Proxy.P99 - c.P99
		r.InstanceDiffP50 = c.P50 - r.Direct.P50
	}
	return r, nil
}

// pairedMedianDiff is the median of b[i] − a[i] over the pairs, in µs.
func pairedMedianDiff(a, b []time.Duration) float64 {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	diffs := make([]float64, n)
	for i := 0; i < n; i++ {
		diffs[i] = us(b[i] - a[i])
	}
	return medianFloat(diffs)
}

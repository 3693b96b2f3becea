package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// baselineResult compares cdpvisor with the baseline cdpvisor
// (--baseline-bin, "today's" build) on cold start or recovery: the same
// operation on both, interleaved with each other and with the bare
// launches, medians and cdpvisor − baseline.
type baselineResult struct {
	Ms             []float64 `json:"baseline_ms"`
	Median         float64   `json:"baseline_median_ms"`
	CdpvisorMedian float64   `json:"cdpvisor_median_ms"`
	Diff           float64   `json:"cdpvisor_minus_baseline_ms"`
	Target         float64   `json:"target_ms"` // met when Diff ≤ Target
	Met            bool      `json:"met"`
}

// targetBaselineDiff (issue 27): cold start and recovery within 50 ms of
// today's cdpvisor.
const targetBaselineDiff = 50.0

// compareBaseline summarizes cdpvisor's and the baseline's samples; nil
// when there is no baseline sample.
func compareBaseline(cdpvisor, baseline []time.Duration) *baselineResult {
	if len(baseline) == 0 {
		return nil
	}
	r := &baselineResult{
		Ms:             msList(baseline),
		Median:         ms(median(baseline)),
		CdpvisorMedian: ms(median(cdpvisor)),
		Target:         targetBaselineDiff,
	}
	r.Diff = r.CdpvisorMedian - r.Median
	r.Met = r.Diff <= r.Target
	return r
}

// baselineRow is the table line of a comparison with the baseline.
func baselineRow(figure string, r *baselineResult) row {
	return row{figure, f1(r.Median) + " (baseline)", f1(r.CdpvisorMedian), signed(r.Diff, "ms", 1),
		fmt.Sprintf("≤ +%.0f ms", r.Target), met(r.Met)}
}

func msList(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = ms(d)
	}
	return out
}

// findBaseline is the absolute path of --baseline-bin, which must exist.
func findBaseline(given string) (string, error) {
	if _, err := os.Stat(given); err != nil {
		return "", fmt.Errorf("--baseline-bin: %w", err)
	}
	return filepath.Abs(given)
}

// recoveryProc is a cdpvisor whose browser recovery kills, and a client of
// it on which the next request is timed.
type recoveryProc struct {
	cv *cdpvisorProc
	c  *cdpClient
}

// startBaselineForRecovery starts the baseline cdpvisor and a client that
// has its browser launched (not timed), like the long-lived cdpvisor's.
func (b *bench) startBaselineForRecovery(ctx context.Context) (*recoveryProc, func(), error) {
	cv, stop, err := b.launchCdpvisorBin(ctx, b.baseBin)
	if err != nil {
		return nil, nil, fmt.Errorf("baseline: %w", err)
	}
	ws, err := resolveWS(ctx, cv.endpoint)
	if err == nil {
		var c *cdpClient
		if c, err = dialReady(ctx, ws); err == nil {
			return &recoveryProc{cv: cv, c: c}, func() { c.Close(); stop() }, nil
		}
	}
	stop()
	return nil, nil, fmt.Errorf("baseline: %w", err)
}

// dialReady opens a client and waits for its first Browser.getVersion
// (through cdpvisor: the browser is running after it).
func dialReady(ctx context.Context, ws string) (*cdpClient, error) {
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return nil, err
	}
	if _, err := browserGetVersion(ctx, c, 30*time.Second); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The time to a working world (issue 34): from asking for a fresh context
// to a first page of a local site evaluated through Puppeteer, on three
// sides taken in turn, their order rotating each round, in one run
// (testdata/clients/bench_world_time.mjs): `cdpvisor world open` and
// Puppeteer on the world's port; a new `cdpvisor serve` (a fresh browser)
// per agent; Chromium's own Target.createBrowserContext + createTarget on
// a bare Chromium, driven directly.

// The sides of the time to a working world.
const (
	worldTimeWorlds   = "worlds"
	worldTimeBrowsers = "browsers"
	worldTimeChromium = "chromium"
)

// Targets of issue 34.
const (
	targetWorldTimeP50   = 60.0 // ms
	targetWorldTimeRatio = 1.2  // worlds ÷ Chromium's own context, p50
)

// worldTimeResult is the figure: each side's samples (ms) and summary.
type worldTimeResult struct {
	Samples int                      `json:"samples_per_side"`
	Sides   map[string]worldTimeSide `json:"sides"`
	Raw     map[string][]float64     `json:"raw_ms"`
	Order   []string                 `json:"order"` // of the first round; each next one rotates it
	Ratio   float64                  `json:"p50_ratio_worlds_over_chromium"`
}

// worldTimeSide is one side's p50 and p99 (ms).
type worldTimeSide struct {
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

// measureWorldTime takes the figure: one cdpvisor (its browser running),
// one bare Chromium, and the Node script.
func (b *bench) measureWorldTime(ctx context.Context) (*worldTimeResult, error) {
	dir, err := puppeteerDir()
	if err != nil {
		return nil, err
	}
	pages, err := startPageServer()
	if err != nil {
		return nil, err
	}
	defer pages.close()
	cv, stopCv, err := b.launchCdpvisor(ctx)
	if err != nil {
		return nil, err
	}
	defer stopCv()
	if _, err := resolveWS(ctx, cv.endpoint); err != nil { // its browser runs before the first sample
		return nil, err
	}
	bare, stopBare, err := b.launchBare(ctx)
	if err != nil {
		return nil, err
	}
	defer stopBare()
	states, _ := filepath.Glob(filepath.Join(cv.stateDir, "coordinator-*.json"))
	if len(states) != 1 {
		return nil, fmt.Errorf("cdpvisor's state file in %s: found %v", cv.stateDir, states)
	}
	n := b.cfg.WorldTimeSamples
	sides := []string{worldTimeWorlds, worldTimeBrowsers, worldTimeChromium}
	var order []string
	for i := range n {
		for j := range sides {
			order = append(order, sides[(i+j)%len(sides)])
		}
	}
	out, err := runNodeBench(ctx, dir, b.root, "bench_world_time.mjs", map[string]any{
		"bin": b.bin, "browser": b.browser, "state": states[0], "root": b.root,
		"page": pages.base + helloPagePath, "chromiumWS": bare.ws, "order": order,
	}, false)
	if err != nil {
		return nil, err
	}
	var res struct {
		OK      bool
		Samples map[string][]float64
	}
	if err := json.Unmarshal(out, &res); err != nil || !res.OK {
		return nil, fmt.Errorf("bench_world_time.mjs printed %q: %v", tail(string(out), 500), err)
	}
	r := &worldTimeResult{Samples: n, Sides: map[string]worldTimeSide{}, Raw: res.Samples, Order: sides}
	for side, v := range res.Samples {
		d := make([]time.Duration, len(v))
		for i, x := range v {
			d[i] = time.Duration(x * float64(time.Millisecond))
		}
		r.Sides[side] = worldTimeSide{P50: ms(percentile(d, 50)), P99: ms(percentile(d, 99))}
	}
	r.Ratio = ratio(r.Sides[worldTimeWorlds].P50, r.Sides[worldTimeChromium].P50)
	return r, nil
}

// worldTimeRows are the figure's rows: direct is Chromium's own context.
func worldTimeRows(r *worldTimeResult) []row {
	w, c, f := r.Sides[worldTimeWorlds], r.Sides[worldTimeChromium], r.Sides[worldTimeBrowsers]
	ok := w.P50 <= targetWorldTimeP50 && r.Ratio <= targetWorldTimeRatio
	return []row{
		{fmt.Sprintf("time to a working world p50 (ms, %d each)", r.Samples), f1(c.P50) + " (Chromium's context)", f1(w.P50), fmt.Sprintf("×%.2f", r.Ratio), "≤ 60 ms, ≤ ×1.2", met(ok)},
		{"time to a working world p99 (ms)", f1(c.P99), f1(w.P99), fmt.Sprintf("×%.2f", ratio(w.P99, c.P99)), notApplicable, notApplicable},
		{"a fresh browser per agent p50 / p99 (ms)", notApplicable, f1(f.P50) + " / " + f1(f.P99), fmt.Sprintf("world ×%.2f", ratio(w.P50, f.P50)), notApplicable, notApplicable},
	}
}

// puppeteerDir is testdata/clients once puppeteer-core is installed there.
func puppeteerDir() (string, error) {
	dir, err := clientsDir()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "puppeteer-core")); err != nil {
		return "", fmt.Errorf("no puppeteer-core in %s: run .ci/setup (npm ci) first", dir)
	}
	return dir, nil
}

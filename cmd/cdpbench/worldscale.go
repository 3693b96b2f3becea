package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// How the cost of worlds grows (issue 34): 1, 10, 25 and 50 worlds of one
// `cdpvisor serve` (a fresh one for each count), each with its pages of the
// bench's local page: the browser's PSS as the worlds figure sums it, and
// the round trip (Runtime.evaluate "1" on each world's first page) while
// every world's agent sends at once.

// worldScaleStep is one count of worlds.
type worldScaleStep struct {
	Worlds       int     `json:"worlds"`
	Pages        int     `json:"pages"`
	PSSMB        float64 `json:"pss_mb"`
	PSSFileOnce  float64 `json:"pss_file_once_mb,omitempty"`
	PerWorldMB   float64 `json:"pss_per_world_mb"`
	Calls        int     `json:"calls"`
	RTP50us      float64 `json:"rt_p50_us"`
	RTP99us      float64 `json:"rt_p99_us"`
	LoadStart    string  `json:"loadavg_start,omitempty"`
	OtherBrowser int     `json:"other_chromium_processes"`
}

// worldScaleResult is the figure.
type worldScaleResult struct {
	PagesPerWorld int              `json:"pages_per_world"`
	CallsPerAgent int              `json:"calls_per_agent"`
	Steps         []worldScaleStep `json:"steps"`
}

// worldScaleCounts reads --worldscale-counts.
func worldScaleCounts(s string) ([]int, error) {
	var out []int
	for _, f := range splitComma(s) {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--worldscale-counts: %q is not a count of worlds", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func (b *bench) measureWorldScale(ctx context.Context) (*worldScaleResult, error) {
	counts, err := worldScaleCounts(b.cfg.WorldScaleCounts)
	if err != nil {
		return nil, err
	}
	pages, err := startPageServer()
	if err != nil {
		return nil, err
	}
	defer pages.close()
	r := &worldScaleResult{PagesPerWorld: b.cfg.WorldsPages, CallsPerAgent: b.cfg.WorldScaleCalls}
	for _, n := range counts {
		progress("worldscale: %d worlds", n)
		step, err := b.worldScaleStep(ctx, n, pages)
		if err != nil {
			return nil, fmt.Errorf("%d worlds: %w", n, err)
		}
		r.Steps = append(r.Steps, step)
	}
	return r, nil
}

// worldScaleStep opens n worlds with their pages on a fresh cdpvisor,
// reads the memory once they settled, then times the round trip of all
// their agents at once.
func (b *bench) worldScaleStep(ctx context.Context, n int, pages *pageServer) (worldScaleStep, error) {
	cfg := b.cfg
	st := &worldsSideState{b: b, side: worldsSideWorlds, tag: fmt.Sprintf("CDPBENCH_WORLDS_SIDE=scale-%d-%d", n, time.Now().UnixNano())}
	defer st.close()
	step := worldScaleStep{Worlds: n, Pages: n * cfg.WorldsPages, LoadStart: loadAvg()}
	for i := 1; i <= n; i++ {
		a, err := st.openAgent(ctx, i, pages)
		if err != nil {
			return step, fmt.Errorf("world %d: %w", i, err)
		}
		st.agents = append(st.agents, a)
	}
	for _, a := range st.agents {
		for _, s := range a.sessions {
			if err := waitPageReady(ctx, a.c, s, cfg.Timeout); err != nil {
				return step, err
			}
		}
	}
	if err := sleepCtx(ctx, cfg.WorldsSettle); err != nil {
		return step, err
	}
	snap, err := st.snapshot()
	if err != nil {
		return step, err
	}
	step.PSSMB, step.PSSFileOnce = mb(snap.Total.PSSkB), mb(snap.pssFileOnce())
	step.PerWorldMB = step.PSSMB / float64(n)
	step.OtherBrowser = snap.OtherChromium
	lat, err := allAtOnce(ctx, st.agents, cfg.WorldScaleCalls, cfg.Timeout)
	if err != nil {
		return step, err
	}
	step.Calls = len(lat)
	step.RTP50us, step.RTP99us = us(percentile(lat, 50)), us(percentile(lat, 99))
	return step, nil
}

// allAtOnce has every agent send calls Runtime.evaluate "1" on its first
// page at the same time, and answers every round trip.
func allAtOnce(ctx context.Context, agents []*worldsAgent, calls int, timeout time.Duration) ([]time.Duration, error) {
	var wg sync.WaitGroup
	lat := make([][]time.Duration, len(agents))
	errs := make([]error, len(agents))
	start := make(chan struct{})
	for i, a := range agents {
		wg.Add(1)
		go func() { // owned: waited for below
			defer wg.Done()
			<-start
			for range calls {
				d, _, err := timedCall(ctx, a.c, a.sessions[0], "Runtime.evaluate", evalOne, timeout)
				if err != nil {
					errs[i] = err
					return
				}
				lat[i] = append(lat[i], d)
			}
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("world %d's agent: %w", i+1, err)
		}
	}
	return slices.Concat(lat...), nil
}

// worldScaleRows are the figure's rows, one per count.
func worldScaleRows(r *worldScaleResult) []row {
	var rows []row
	for _, s := range r.Steps {
		rows = append(rows, row{
			fmt.Sprintf("%d worlds × %d pages: PSS MB (per world) / RT p50/p99 µs, all at once", s.Worlds, r.PagesPerWorld),
			notApplicable, fmt.Sprintf("%.0f (%.1f)", s.PSSMB, s.PerWorldMB), fmt.Sprintf("%.0f / %.0f", s.RTP50us, s.RTP99us), notApplicable, notApplicable,
		})
	}
	return rows
}

package main

import (
	"context"
	"fmt"
	"time"
)

// coldResult compares "no browser → first CDP answer": a bare launch
// against the first request to an idle cdpvisor (and to an idle baseline
// cdpvisor, with --baseline-bin).
type coldResult struct {
	Rounds      int             `json:"rounds"`
	BareMs      []float64       `json:"bare_ms"`
	ProxyMs     []float64       `json:"cdpvisor_ms"`
	BareMedian  float64         `json:"bare_median_ms"`
	ProxyMedian float64         `json:"cdpvisor_median_ms"`
	Diff        float64         `json:"diff_ms"` // cdpvisor − bare, medians
	Baseline    *baselineResult `json:"baseline,omitempty"`
}

// bareLaunchTime is spawn → DevTools line → websocket → Browser.getVersion
// answered, for a bare Chromium on a fresh profile.
func (b *bench) bareLaunchTime(ctx context.Context) (time.Duration, error) {
	t0 := time.Now()
	p, stop, err := b.launchBare(ctx)
	if err != nil {
		return 0, err
	}
	defer stop()
	c, err := dialCDP(ctx, p.ws)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := browserGetVersion(ctx, c, 30*time.Second); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// proxyColdTime starts an idle cdpvisor of bin (not timed), then times GET
// /json/version (which launches the browser), the websocket to the
// advertised URL and Browser.getVersion.
func (b *bench) proxyColdTime(ctx context.Context, bin string) (time.Duration, error) {
	cv, stop, err := b.launchCdpvisorBin(ctx, bin)
	if err != nil {
		return 0, err
	}
	defer stop()
	if err := sleepCtx(ctx, 300*time.Millisecond); err != nil { // let it settle
		return 0, err
	}
	t0 := time.Now()
	ws, err := resolveWS(ctx, cv.endpoint)
	if err != nil {
		return 0, err
	}
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := browserGetVersion(ctx, c, 30*time.Second); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// coldTime is one cold start of side s.
func (b *bench) coldTime(ctx context.Context, s side) (time.Duration, error) {
	switch s {
	case sideDirect:
		return b.bareLaunchTime(ctx)
	case sideBaseline:
		return b.proxyColdTime(ctx, b.baseBin)
	default:
		return b.proxyColdTime(ctx, b.bin)
	}
}

func (b *bench) measureColdStart(ctx context.Context) (*coldResult, error) {
	durs := map[side][]time.Duration{}
	for _, s := range launchOrder(b.cfg.ColdRuns, b.baseBin != "") {
		d, err := b.coldTime(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("cold start %s: %w", s, err)
		}
		durs[s] = append(durs[s], d)
		if err := sleepCtx(ctx, 300*time.Millisecond); err != nil { // let the stopped one's exit settle
			return nil, err
		}
	}
	res := &coldResult{
		Rounds: b.cfg.ColdRuns,
		BareMs: msList(durs[sideDirect]), ProxyMs: msList(durs[sideProxy]),
		BareMedian: ms(median(durs[sideDirect])), ProxyMedian: ms(median(durs[sideProxy])),
		Baseline: compareBaseline(durs[sideProxy], durs[sideBaseline]),
	}
	res.Diff = res.ProxyMedian - res.BareMedian
	return res, nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// recoveryResult compares kill -9 of cdpvisor's browser → the next
// request on the same websocket answered, with bare launches interleaved
// (and the same on a baseline cdpvisor, with --baseline-bin).
type recoveryResult struct {
	Rounds         int             `json:"rounds"`
	BareMs         []float64       `json:"bare_launch_ms"`
	RecoveryMs     []float64       `json:"recovery_ms"`
	BareMedian     float64         `json:"bare_launch_median_ms"`
	RecoveryMedian float64         `json:"recovery_median_ms"`
	Diff           float64         `json:"diff_ms"` // recovery − bare launch, medians
	Baseline       *baselineResult `json:"baseline,omitempty"`
}

// browserPid asks the browser for its own pid.
func browserPid(ctx context.Context, c *cdpClient, timeout time.Duration) (int, error) {
	var info struct {
		ProcessInfo []struct {
			Type string `json:"type"`
			ID   int    `json:"id"`
		} `json:"processInfo"`
	}
	if err := c.Do(ctx, "", "SystemInfo.getProcessInfo", nil, &info, timeout); err != nil {
		return 0, err
	}
	for _, p := range info.ProcessInfo {
		if p.Type == "browser" && p.ID > 0 {
			return p.ID, nil
		}
	}
	return 0, errors.New("SystemInfo.getProcessInfo: no browser process")
}

// recoveryTime kills the browser of r (its pid from
// SystemInfo.getProcessInfo: the browser's own, whether cdpvisor talks to
// it over a port or a pipe) with SIGKILL and times the next
// Browser.getVersion on r's client.
func (b *bench) recoveryTime(ctx context.Context, r *recoveryProc) (time.Duration, error) {
	c := r.c
	pid, err := browserPid(ctx, c, b.cfg.Timeout)
	if err != nil {
		return 0, err
	}
	if pid == r.cv.pid || pid == b.cv.pid || (b.bare != nil && pid == b.bare.pid) {
		return 0, fmt.Errorf("browser pid %d is not cdpvisor's browser", pid)
	}
	if err := killPid(pid); err != nil {
		return 0, fmt.Errorf("kill -9 %d: %w", pid, err)
	}
	t0 := time.Now()
	if _, err := browserGetVersion(ctx, c, 30*time.Second); err != nil {
		return 0, fmt.Errorf("after kill -9 %d: %w", pid, err)
	}
	d := time.Since(t0)
	if pid2, err := browserPid(ctx, c, b.cfg.Timeout); err != nil || pid2 == pid {
		return 0, fmt.Errorf("after kill -9 %d the browser pid is %d (%v)", pid, pid2, err)
	}
	return d, nil
}

// measureRecovery kills the long-lived cdpvisor's browser (its client
// dialled on proxyWS) and, with --baseline-bin, the browser of a baseline
// cdpvisor started for this figure, interleaved with bare launches.
func (b *bench) measureRecovery(ctx context.Context, proxyWS string) (*recoveryResult, error) {
	c, err := dialReady(ctx, proxyWS)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	procs := map[side]*recoveryProc{sideProxy: {cv: b.cv, c: c}}
	if b.baseBin != "" {
		base, stop, err := b.startBaselineForRecovery(ctx)
		if err != nil {
			return nil, err
		}
		defer stop()
		procs[sideBaseline] = base
	}
	durs := map[side][]time.Duration{}
	for _, s := range launchOrder(b.cfg.RecovRuns, b.baseBin != "") {
		var d time.Duration
		if s == sideDirect {
			d, err = b.bareLaunchTime(ctx)
		} else {
			d, err = b.recoveryTime(ctx, procs[s])
		}
		if err != nil {
			return nil, fmt.Errorf("recovery %s: %w", s, err)
		}
		durs[s] = append(durs[s], d)
		if err := sleepCtx(ctx, 500*time.Millisecond); err != nil { // the killed browser's helpers exit
			return nil, err
		}
	}
	res := &recoveryResult{
		Rounds: b.cfg.RecovRuns,
		BareMs: msList(durs[sideDirect]), RecoveryMs: msList(durs[sideProxy]),
		BareMedian: ms(median(durs[sideDirect])), RecoveryMedian: ms(median(durs[sideProxy])),
		Baseline: compareBaseline(durs[sideProxy], durs[sideBaseline]),
	}
	res.Diff = res.RecoveryMedian - res.BareMedian
	return res, nil
}

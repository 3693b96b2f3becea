package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// recoveryResult compares kill -9 of cdpvisor's browser → the next
// request on the same websocket answered, with bare launches interleaved.
type recoveryResult struct {
	Rounds         int       `json:"rounds"`
	BareMs         []float64 `json:"bare_launch_ms"`
	RecoveryMs     []float64 `json:"recovery_ms"`
	BareMedian     float64   `json:"bare_launch_median_ms"`
	RecoveryMedian float64   `json:"recovery_median_ms"`
	Diff           float64   `json:"diff_ms"` // recovery − bare launch, medians
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

// recoveryTime kills the browser behind c with SIGKILL and times the next
// Browser.getVersion on c.
func (b *bench) recoveryTime(ctx context.Context, c *cdpClient) (time.Duration, error) {
	pid, err := browserPid(ctx, c, b.cfg.Timeout)
	if err != nil {
		return 0, err
	}
	if pid == b.cv.pid || (b.bare != nil && pid == b.bare.pid) {
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

func (b *bench) measureRecovery(ctx context.Context, proxyWS string) (*recoveryResult, error) {
	c, err := dialCDP(ctx, proxyWS)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if _, err := browserGetVersion(ctx, c, 30*time.Second); err != nil {
		return nil, err
	}
	res := &recoveryResult{Rounds: b.cfg.RecovRuns}
	var durs [2][]time.Duration
	for _, s := range alternate(b.cfg.RecovRuns) {
		var d time.Duration
		if s == sideDirect {
			d, err = b.bareLaunchTime(ctx)
		} else {
			d, err = b.recoveryTime(ctx, c)
		}
		if err != nil {
			return nil, fmt.Errorf("recovery %s: %w", s, err)
		}
		durs[s] = append(durs[s], d)
		if s == sideDirect {
			res.BareMs = append(res.BareMs, ms(d))
		} else {
			res.RecoveryMs = append(res.RecoveryMs, ms(d))
		}
		if err := sleepCtx(ctx, 500*time.Millisecond); err != nil { // the killed browser's helpers exit
			return nil, err
		}
	}
	res.BareMedian = ms(median(durs[sideDirect]))
	res.RecoveryMedian = ms(median(durs[sideProxy]))
	res.Diff = res.RecoveryMedian - res.BareMedian
	return res, nil
}

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// memoryResult is cdpvisor's (the coordinator process's) resident memory.
type memoryResult struct {
	// IdleFresh: right after `cdpvisor serve` printed its endpoint (+1 s),
	// before any request: no browser, no client.
	IdleFresh procMem `json:"idle_fresh"`
	// WithClients: Clients websockets connected to /devtools/browser/…,
	// each having had one Browser.getVersion answered, then 1 s idle.
	Clients     int     `json:"clients"`
	WithClients procMem `json:"with_clients"`
	// AfterClients: 1 s after those clients closed.
	AfterClients procMem `json:"after_clients"`
	// EndOfRun: after every figure; its HWM is the peak of the whole run
	// (10 MB messages, fan-in, recoveries).
	EndOfRun procMem `json:"end_of_run"`
	// Watchdogs: the detached guard, `cdpvisor watchdog` (one per
	// coordinator), not part of the coordinator's figure.
	Watchdogs []procMem `json:"watchdogs,omitempty"`
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

// measureMemoryClients connects n clients to the proxy and reads cdpvisor's
// memory with them connected and after they left.
func (b *bench) measureMemoryClients(ctx context.Context, res *memoryResult, proxyWS string, n int) error {
	res.Clients = n
	clients := make([]*cdpClient, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 10)
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := dialCDP(ctx, proxyWS)
			if err == nil {
				if _, err = browserGetVersion(ctx, c, b.cfg.Timeout); err != nil {
					c.Close()
				}
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				return
			}
			clients[i] = c
		}(i)
	}
	wg.Wait()
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
	}()
	if firstErr != nil {
		return fmt.Errorf("connecting %d clients: %w", n, firstErr)
	}
	if err := sleepCtx(ctx, time.Second); err != nil {
		return err
	}
	m, err := readProcMem(b.cv.pid)
	if err != nil {
		return err
	}
	res.WithClients = m
	for i, c := range clients {
		c.Close()
		clients[i] = nil
	}
	if err := sleepCtx(ctx, time.Second); err != nil {
		return err
	}
	if res.AfterClients, err = readProcMem(b.cv.pid); err != nil {
		return err
	}
	for _, pid := range processesMatching(b.cv.stateDir, "watchdog") {
		if m, err := readProcMem(pid); err == nil {
			res.Watchdogs = append(res.Watchdogs, m)
		}
	}
	return nil
}

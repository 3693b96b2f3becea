package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// faninPhase is one side's phase: clients × requests at once.
type faninPhase struct {
	Side         string  `json:"side"`
	Clients      int     `json:"clients"`
	Requests     int     `json:"requests_per_client"`
	Errors       int     `json:"errors"`
	ConnectFails int     `json:"connect_failures"` // clients that never started (their requests count as errors)
	FirstError   string  `json:"first_error,omitempty"`
	Latency      summary `json:"latency"`
	WallMs       float64 `json:"wall_ms"`
	ReqPerSec    float64 `json:"requests_per_s"`
}

type faninResult struct {
	Clients  int          `json:"clients"`
	Requests int          `json:"requests_per_client"`
	Phases   []faninPhase `json:"phases"`
	Direct   faninPhase   `json:"direct"`   // all direct phases together
	Proxy    faninPhase   `json:"cdpvisor"` // all cdpvisor phases together
	P99Ratio float64      `json:"p99_ratio"`
	RPSRatio float64      `json:"throughput_ratio"`
	// ProxyPeakRSSkB is cdpvisor's VmHWM after its phases (--launch only).
	ProxyPeakRSSkB int64 `json:"cdpvisor_peak_rss_kb,omitempty"`
}

// faninClient is one of the concurrent clients: its own websocket and its
// own flattened session on the side's shared page.
type faninClient struct {
	c       *cdpClient
	session string
}

// runFaninPhase connects clients (untimed), then lets all of them send
// their requests at once, each sequentially, and gathers latencies.
func runFaninPhase(ctx context.Context, cfg config, e *endpointSide) (faninPhase, []time.Duration) {
	ph := faninPhase{Side: e.side.String(), Clients: cfg.FaninCli, Requests: cfg.FaninReq}
	clients := make([]*faninClient, cfg.FaninCli)
	var mu sync.Mutex
	fail := func(err error, n int) {
		mu.Lock()
		defer mu.Unlock()
		ph.Errors += n
		if ph.FirstError == "" {
			ph.FirstError = err.Error()
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10) // connect 10 at a time: set-up is not measured
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := dialCDP(ctx, e.ws)
			if err != nil {
				fail(err, cfg.FaninReq)
				return
			}
			s, err := c.attach(ctx, e.target, cfg.Timeout)
			if err != nil {
				c.Close()
				fail(err, cfg.FaninReq)
				return
			}
			clients[i] = &faninClient{c: c, session: s}
		}(i)
	}
	wg.Wait()
	ph.ConnectFails = 0
	for _, fc := range clients {
		if fc == nil {
			ph.ConnectFails++
		}
	}

	lat := make([][]time.Duration, len(clients))
	start := make(chan struct{})
	for i, fc := range clients {
		if fc == nil {
			continue
		}
		wg.Add(1)
		go func(i int, fc *faninClient) {
			defer wg.Done()
			<-start
			mine := make([]time.Duration, 0, cfg.FaninReq)
			for j := 0; j < cfg.FaninReq; j++ {
				dur, _, err := timedCall(ctx, fc.c, fc.session, "Runtime.evaluate", evalOne, cfg.Timeout)
				if err != nil {
					fail(err, 1)
					if ctx.Err() != nil {
						fail(ctx.Err(), cfg.FaninReq-j-1)
						break
					}
					continue
				}
				mine = append(mine, dur)
			}
			lat[i] = mine
		}(i, fc)
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	wall := time.Since(t0)

	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	for _, fc := range clients {
		if fc != nil {
			fc.c.Close()
		}
	}
	ph.Latency = summarize(all)
	ph.WallMs = ms(wall)
	ph.ReqPerSec = float64(len(all)) / wall.Seconds()
	return ph, all
}

func measureFanin(ctx context.Context, cfg config, d, p *endpointSide) (*faninResult, error) {
	sides := [2]*endpointSide{d, p}
	res := &faninResult{Clients: cfg.FaninCli, Requests: cfg.FaninReq}
	var all [2][]time.Duration
	var wall [2]float64
	agg := [2]*faninPhase{&res.Direct, &res.Proxy}
	for s := range agg {
		*agg[s] = faninPhase{Side: side(s).String(), Clients: cfg.FaninCli, Requests: cfg.FaninReq}
	}
	for _, s := range alternate(cfg.FaninRuns) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ph, lat := runFaninPhase(ctx, cfg, sides[s])
		res.Phases = append(res.Phases, ph)
		all[s] = append(all[s], lat...)
		wall[s] += ph.WallMs
		a := agg[s]
		a.Errors += ph.Errors
		a.ConnectFails += ph.ConnectFails
		if a.FirstError == "" {
			a.FirstError = ph.FirstError
		}
		time.Sleep(200 * time.Millisecond) // let closed sessions drain
	}
	for s := range agg {
		agg[s].Latency = summarize(all[s])
		agg[s].WallMs = wall[s]
		if wall[s] > 0 {
			agg[s].ReqPerSec = float64(len(all[s])) / (wall[s] / 1000)
		}
	}
	res.P99Ratio = ratio(res.Proxy.Latency.P99, res.Direct.Latency.P99)
	res.RPSRatio = ratio(res.Proxy.ReqPerSec, res.Direct.ReqPerSec)
	if res.Direct.Errors+res.Proxy.Errors > 0 {
		fmt.Printf("fan-in errors: direct %d (%s), cdpvisor %d (%s)\n",
			res.Direct.Errors, res.Direct.FirstError, res.Proxy.Errors, res.Proxy.FirstError)
	}
	return res, nil
}

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// worldsAgent is one agent: its connection and its pages' sessions.
type worldsAgent struct {
	c        *cdpClient
	sessions []string
	targets  []string
}

// worldsSideState is what one side started.
type worldsSideState struct {
	b        *bench
	side     string
	tag      string // NAME=value in the environment of the side's cdpvisors
	cvs      []*cdpvisorProc
	stops    []func()
	browsers []int // browser pids
	agents   []*worldsAgent
}

// close ends the agents' connections, then every cdpvisor of the side (at
// once: each waits for its browser to end).
func (st *worldsSideState) close() {
	for _, a := range st.agents {
		a.c.Close()
	}
	st.agents = nil
	var wg sync.WaitGroup
	for _, stop := range st.stops {
		wg.Add(1)
		go func(stop func()) {
			defer wg.Done()
			stop()
		}(stop)
	}
	wg.Wait()
}

// startCdpvisor starts one more cdpvisor of the side and its browser (by a
// request to its unprefixed endpoint), and learns the browser's pid.
func (st *worldsSideState) startCdpvisor(ctx context.Context) (*cdpvisorProc, error) {
	cv, stop, err := st.b.launchCdpvisor(ctx, st.tag)
	if err != nil {
		return nil, err
	}
	st.cvs = append(st.cvs, cv)
	st.stops = append(st.stops, stop)
	ws, err := resolveWS(ctx, cv.endpoint)
	if err != nil {
		return nil, err
	}
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	pid, err := browserPid(ctx, c, st.b.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	st.browsers = append(st.browsers, pid)
	return cv, nil
}

// worldsSide runs one side of one round: the first agent, a snapshot, the
// others, a snapshot, and on the worlds side the round trip.
func (b *bench) worldsSide(ctx context.Context, side string, round int, pages *pageServer, rt *rtSamples, chromium *string) (*worldsSideRun, error) {
	cfg := b.cfg
	st := &worldsSideState{b: b, side: side, tag: fmt.Sprintf("CDPBENCH_WORLDS_SIDE=%s-%d-%d", side, round+1, time.Now().UnixNano())}
	defer st.close()
	run := &worldsSideRun{Side: side, Load: loadAvg()}
	var loading time.Duration
	// step opens agents from..to, waits for their pages, lets them settle
	// and takes the snapshot.
	step := func(from, to int) (memSnapshot, error) {
		t0 := time.Now()
		for i := from; i <= to; i++ {
			a, err := st.openAgent(ctx, i, pages)
			if err != nil {
				return memSnapshot{}, fmt.Errorf("agent %d: %w", i, err)
			}
			st.agents = append(st.agents, a)
		}
		for _, a := range st.agents[from-1:] {
			for _, s := range a.sessions {
				if err := waitPageReady(ctx, a.c, s, cfg.Timeout); err != nil {
					return memSnapshot{}, err
				}
			}
		}
		loading += time.Since(t0)
		if err := sleepCtx(ctx, cfg.WorldsSettle); err != nil {
			return memSnapshot{}, err
		}
		return st.snapshot()
	}
	var err error
	if run.One, err = step(1, 1); err != nil {
		return nil, err
	}
	if run.All, err = step(2, cfg.WorldsAgents); err != nil {
		return nil, err
	}
	run.PagesLoadedS = loading.Seconds()
	run.Browsers = len(st.browsers)
	run.MarginalPSSkB = (run.All.Total.PSSkB - run.One.Total.PSSkB) / int64(cfg.WorldsAgents-1)
	run.Cdpvisor, run.CdpvisorProcs = st.ownMemory()
	if *chromium == "" && len(st.agents) > 0 {
		if v, err := browserGetVersion(ctx, st.agents[0].c, cfg.Timeout); err == nil {
			*chromium = v.Product
		}
	}
	if rt != nil {
		if err := st.roundTrip(ctx, rt); err != nil {
			return nil, fmt.Errorf("round trip: %w", err)
		}
	}
	return run, nil
}

// openAgent connects agent i (1-based) as its side has it and opens its
// pages (not waiting for them to load).
func (st *worldsSideState) openAgent(ctx context.Context, i int, pages *pageServer) (*worldsAgent, error) {
	cfg := st.b.cfg
	var endpoint string
	switch {
	case st.side == worldsSideBrowsers || len(st.cvs) == 0:
		cv, err := st.startCdpvisor(ctx)
		if err != nil {
			return nil, err
		}
		endpoint = cv.endpoint
	default:
		endpoint = st.cvs[0].endpoint
	}
	if st.side == worldsSideWorlds {
		endpoint += fmt.Sprintf("/context/agent-%d", i)
	}
	ws, err := resolveWS(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return nil, err
	}
	a := &worldsAgent{c: c}
	params := map[string]any{}
	if st.side == worldsSideContexts {
		var made struct {
			BrowserContextID string `json:"browserContextId"`
		}
		if err := c.Do(ctx, "", "Target.createBrowserContext", nil, &made, cfg.Timeout); err != nil {
			c.Close()
			return nil, err
		}
		params["browserContextId"] = made.BrowserContextID
	}
	for j := 1; j <= cfg.WorldsPages; j++ {
		params["url"] = pages.pageURL(i, j)
		var created struct {
			TargetID string `json:"targetId"`
		}
		if err := c.Do(ctx, "", "Target.createTarget", params, &created, cfg.Timeout); err != nil {
			c.Close()
			return nil, err
		}
		s, err := c.attach(ctx, created.TargetID, cfg.Timeout)
		if err != nil {
			c.Close()
			return nil, err
		}
		a.sessions = append(a.sessions, s)
		a.targets = append(a.targets, created.TargetID)
	}
	return a, nil
}

// waitPageReady polls the page until it has loaded and run its script.
func waitPageReady(ctx context.Context, c *cdpClient, session string, timeout time.Duration) error {
	deadline := time.Now().Add(60 * time.Second)
	var last error
	for {
		var res struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		err := c.Do(ctx, session, "Runtime.evaluate", map[string]any{"expression": agentReadyJS, "returnByValue": true}, &res, timeout)
		if err == nil && res.Result.Value {
			return nil
		}
		if err != nil {
			last = err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("page not loaded within 60 s (last error: %v)", last)
		}
		if err := sleepCtx(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
}

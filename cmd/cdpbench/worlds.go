package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// The worlds figure (issue 26): N agents, each with its pages of the
// bench's local page, as N worlds of one `cdpvisor serve` against N
// `cdpvisor serve`s with a browser each; memory as the sum of PSS over each
// side's browser processes. A third side, Chromium's own contexts, is N
// clients of one `cdpvisor serve` each making a context with
// Target.createBrowserContext on the unprefixed endpoint: what worlds are
// built on, without the walls. The sides run one after another (never two
// at once: they would share pages and split each other's PSS), in an order
// that rotates every round.

// The sides of the worlds figure.
const (
	worldsSideWorlds   = "worlds"   // one cdpvisor, N worlds (/context/agent-i)
	worldsSideBrowsers = "browsers" // N cdpvisors, one browser each
	worldsSideContexts = "contexts" // one cdpvisor, N Chromium contexts made by the clients
)

// Targets of issue 26.
const (
	targetWorldsPSSRatio = 0.65 // worlds ÷ separate browsers, PSS
	targetWorldsRTRatio  = 1.10 // world ÷ unprefixed endpoint, round trip p50
)

// worldsResult is the worlds figure.
type worldsResult struct {
	Agents        int      `json:"agents"`
	PagesPerAgent int      `json:"pages_per_agent"`
	Rounds        int      `json:"rounds"`
	SettleMs      float64  `json:"settle_ms"`
	PageBytes     int      `json:"page_bytes"`
	Sides         []string `json:"sides"`
	Chromium      string   `json:"chromium,omitempty"`
	DurationS     float64  `json:"duration_s"`

	RoundResults []worldsRound `json:"round_results"`
	// Medians over the rounds, by side.
	Median map[string]worldsSideSummary `json:"median"`
	// PSS ratios taken within each round (the sides ran one after the
	// other), then their median, min and max over the rounds.
	Ratio         spread `json:"pss_ratio_worlds_over_browsers"`
	ContextsRatio spread `json:"pss_ratio_contexts_over_browsers,omitempty"`
	WorldsOverCtx spread `json:"pss_ratio_worlds_over_contexts,omitempty"`
	// The same without file-backed pages (PSS anon + shmem): the part other
	// Chromium processes on the machine cannot dilute.
	RatioNoFile spread `json:"pss_nonfile_ratio_worlds_over_browsers"`
	// The same with the file-backed pages counted once within each side
	// (pssFileOnce): independent of other browsers on the machine.
	RatioFileOnce     spread `json:"pss_file_once_ratio_worlds_over_browsers"`
	ContextsFileOnce  spread `json:"pss_file_once_ratio_contexts_over_browsers,omitempty"`
	WorldsOverCtxOnce spread `json:"pss_file_once_ratio_worlds_over_contexts,omitempty"`
	RSSRatio          spread `json:"rss_ratio_worlds_over_browsers"`

	RoundTrip *worldsRoundTrip `json:"round_trip,omitempty"`
}

// spread is a median with the range it came from.
type spread struct {
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values"`
}

func spreadOf(v []float64) spread {
	if len(v) == 0 {
		return spread{}
	}
	s := spread{Median: medianFloat(v), Min: v[0], Max: v[0], Values: v}
	for _, x := range v {
		s.Min = min(s.Min, x)
		s.Max = max(s.Max, x)
	}
	return s
}

// worldsRound is one round: every side once, in Order.
type worldsRound struct {
	Order []string                  `json:"order"`
	UTC   string                    `json:"utc"`
	Load  string                    `json:"loadavg_start"`
	Sides map[string]*worldsSideRun `json:"sides"`
	// Round trip of this round (worlds side): p50 world ÷ p50 unprefixed.
	RTRatioP50 float64 `json:"rt_ratio_p50,omitempty"`
}

// worldsSideRun is one side in one round.
type worldsSideRun struct {
	Side     string `json:"side"`
	Browsers int    `json:"browsers"`
	Load     string `json:"loadavg_start"`
	// PagesLoadedS: starting the side's cdpvisors and browsers and loading
	// every page (the settle times and snapshots not included).
	PagesLoadedS float64 `json:"pages_loaded_s"`
	// One: with the first agent's pages (one browser on every side);
	// All: with every agent's.
	One memSnapshot `json:"one_agent"`
	All memSnapshot `json:"all_agents"`
	// MarginalPSSkB is (All − One) ÷ (agents − 1): what one more agent costs.
	MarginalPSSkB int64 `json:"marginal_pss_kb"`
	// Cdpvisor is cdpvisor's own processes (coordinators and watchdogs) at
	// All: not counted in either side's figure.
	Cdpvisor      rollup `json:"cdpvisor_own"`
	CdpvisorProcs int    `json:"cdpvisor_own_processes"`
}

// memSnapshot is the memory of a side's browser processes at one moment:
// each browser's process tree (the browser pid and its descendants, by the
// ppid of /proc/*/stat) plus the processes Chromium detaches from it (its
// crash handlers, found by an environment entry the side's cdpvisors pass
// down), summed.
type memSnapshot struct {
	Processes int                 `json:"processes"`
	Detached  int                 `json:"detached"` // outside the trees (crash handlers)
	Total     rollup              `json:"total"`    // trees + detached
	Tree      rollup              `json:"tree"`     // the trees alone
	ByKind    map[string]kindStat `json:"by_kind"`
	// OtherChromium counts the processes of the same browser executable on
	// the machine outside the side (other work's browsers): they share the
	// executable's pages, so they take part of its file-backed PSS.
	OtherChromium int `json:"other_chromium_processes"`
	// FileOncekB is the side's resident file-backed memory with each page
	// counted once (page frames from /proc/<pid>/pagemap), whoever else
	// maps it; with no other process mapping those files it equals
	// Total.PSSFilekB. 0 when the frames could not be read.
	FileOncekB int64 `json:"file_once_kb,omitempty"`
}

// pssFileOnce is PSS with the file-backed part counted once within the
// side (anon + shmem + FileOncekB): what the side would sum alone on the
// machine. 0 when FileOncekB could not be read.
func (m memSnapshot) pssFileOnce() int64 {
	if m.FileOncekB == 0 {
		return 0
	}
	return m.Total.PSSAnonkB + m.Total.PSSShmemkB + m.FileOncekB
}

type kindStat struct {
	N     int   `json:"n"`
	PSSkB int64 `json:"pss_kb"`
	RSSkB int64 `json:"rss_kb"`
}

// worldsSideSummary is a side's medians over the rounds, MB.
type worldsSideSummary struct {
	PSSAll      float64 `json:"pss_all_mb"`
	PSSOne      float64 `json:"pss_one_mb"`
	Marginal    float64 `json:"marginal_pss_mb"`
	PSSNoFile   float64 `json:"pss_nonfile_all_mb"`
	PSSFileOnce float64 `json:"pss_file_once_all_mb"`
	FileOnceOne float64 `json:"pss_file_once_one_mb"`
	MargFileOne float64 `json:"marginal_pss_file_once_mb"`
	RSSAll      float64 `json:"rss_all_mb"`
	Processes   float64 `json:"processes_all"`
	Cdpvisor    float64 `json:"cdpvisor_own_pss_mb"`
	PagesLoaded float64 `json:"pages_loaded_s"`
}

// worldsRoundTrip is Runtime.evaluate "1" through a world against the
// unprefixed endpoint of the same cdpvisor, both on the same page (so one
// renderer answers both), in alternating batches.
type worldsRoundTrip struct {
	CallsPerRound int     `json:"calls_per_side_and_round"`
	Batch         int     `json:"batch"`
	Warmup        int     `json:"warmup_per_side_and_round"`
	World         summary `json:"world"`
	Whole         summary `json:"unprefixed"`
	RatioP50      float64 `json:"ratio_p50"` // world ÷ unprefixed
	RatioP90      float64 `json:"ratio_p90"`
	// BatchRatioP50 is the median over batch pairs of p50(world batch) ÷
	// p50(unprefixed batch): less sensitive to drift.
	BatchRatioP50 float64 `json:"batch_pair_median_ratio_p50"`
}

// measureWorlds runs the rounds.
func (b *bench) measureWorlds(ctx context.Context) (*worldsResult, error) {
	t0 := time.Now()
	pages, err := startPageServer()
	if err != nil {
		return nil, err
	}
	defer b.cl.add(pages.close)()
	cfg := b.cfg
	sides := []string{worldsSideWorlds, worldsSideBrowsers}
	if cfg.WorldsContexts {
		sides = append(sides, worldsSideContexts)
	}
	res := &worldsResult{
		Agents: cfg.WorldsAgents, PagesPerAgent: cfg.WorldsPages, Rounds: cfg.WorldsRounds,
		SettleMs: ms(cfg.WorldsSettle), PageBytes: pageBytes(), Sides: sides,
	}
	rt := &rtSamples{}
	for r := 0; r < cfg.WorldsRounds; r++ {
		order := append(append([]string(nil), sides[r%len(sides):]...), sides[:r%len(sides)]...)
		round := worldsRound{Order: order, UTC: time.Now().UTC().Format("15:04:05"), Load: loadAvg(), Sides: map[string]*worldsSideRun{}}
		progress("worlds round %d of %d: %s", r+1, cfg.WorldsRounds, strings.Join(order, ", "))
		for _, s := range order {
			var roundRT *rtSamples
			if s == worldsSideWorlds {
				roundRT = &rtSamples{}
			}
			run, err := b.worldsSide(ctx, s, r, pages, roundRT, &res.Chromium)
			if err != nil {
				return nil, fmt.Errorf("round %d, %s: %w", r+1, s, err)
			}
			round.Sides[s] = run
			progress("worlds round %d, %s: PSS %.0f MB with %d agents (%.0f MB with one; %d processes, %d other Chromium processes on the machine)",
				r+1, s, mb(run.All.Total.PSSkB), cfg.WorldsAgents, mb(run.One.Total.PSSkB), run.All.Processes, run.All.OtherChromium)
			if roundRT != nil {
				round.RTRatioP50 = ratio(us(percentile(roundRT.world, 50)), us(percentile(roundRT.whole, 50)))
				rt.merge(roundRT)
			}
			if err := sleepCtx(ctx, time.Second); err != nil { // the stopped side's processes are gone
				return nil, err
			}
		}
		res.RoundResults = append(res.RoundResults, round)
	}
	res.summarize(rt, cfg)
	res.DurationS = time.Since(t0).Seconds()
	return res, nil
}

// rtSamples are the round trip's samples, by side and by batch.
type rtSamples struct {
	world, whole           []time.Duration
	worldBatch, wholeBatch []time.Duration // p50 of each batch
}

func (r *rtSamples) merge(o *rtSamples) {
	r.world = append(r.world, o.world...)
	r.whole = append(r.whole, o.whole...)
	r.worldBatch = append(r.worldBatch, o.worldBatch...)
	r.wholeBatch = append(r.wholeBatch, o.wholeBatch...)
}

// summarize takes the medians and ratios over the rounds.
func (res *worldsResult) summarize(rt *rtSamples, cfg config) {
	res.Median = map[string]worldsSideSummary{}
	for _, s := range res.Sides {
		var all, one, marg, nofile, once, onceOne, onceMarg, rss, procs, own, loaded []float64
		for _, r := range res.RoundResults {
			run := r.Sides[s]
			if run == nil {
				continue
			}
			all = append(all, mb(run.All.Total.PSSkB))
			one = append(one, mb(run.One.Total.PSSkB))
			marg = append(marg, mb(run.MarginalPSSkB))
			nofile = append(nofile, mb(run.All.Total.PSSAnonkB+run.All.Total.PSSShmemkB))
			if a, o := run.All.pssFileOnce(), run.One.pssFileOnce(); a > 0 && o > 0 {
				once = append(once, mb(a))
				onceOne = append(onceOne, mb(o))
				onceMarg = append(onceMarg, mb(a-o)/float64(res.Agents-1))
			}
			rss = append(rss, mb(run.All.Total.RSSkB))
			procs = append(procs, float64(run.All.Processes))
			own = append(own, mb(run.Cdpvisor.PSSkB))
			loaded = append(loaded, run.PagesLoadedS)
		}
		res.Median[s] = worldsSideSummary{
			PSSAll: medianFloat(all), PSSOne: medianFloat(one), Marginal: medianFloat(marg),
			PSSNoFile: medianFloat(nofile), RSSAll: medianFloat(rss), Processes: medianFloat(procs),
			PSSFileOnce: medianFloat(once), FileOnceOne: medianFloat(onceOne), MargFileOne: medianFloat(onceMarg),
			Cdpvisor: medianFloat(own), PagesLoaded: medianFloat(loaded),
		}
	}
	per := func(num, den string, val func(*worldsSideRun) int64) spread {
		var v []float64
		for _, r := range res.RoundResults {
			a, b := r.Sides[num], r.Sides[den]
			if a != nil && b != nil && val(a) > 0 && val(b) > 0 {
				v = append(v, ratio(float64(val(a)), float64(val(b))))
			}
		}
		return spreadOf(v)
	}
	pss := func(s *worldsSideRun) int64 { return s.All.Total.PSSkB }
	res.Ratio = per(worldsSideWorlds, worldsSideBrowsers, pss)
	res.RatioNoFile = per(worldsSideWorlds, worldsSideBrowsers, func(s *worldsSideRun) int64 {
		return s.All.Total.PSSAnonkB + s.All.Total.PSSShmemkB
	})
	res.RSSRatio = per(worldsSideWorlds, worldsSideBrowsers, func(s *worldsSideRun) int64 { return s.All.Total.RSSkB })
	once := func(s *worldsSideRun) int64 { return s.All.pssFileOnce() }
	res.RatioFileOnce = per(worldsSideWorlds, worldsSideBrowsers, once)
	if contains(res.Sides, worldsSideContexts) {
		res.ContextsFileOnce = per(worldsSideContexts, worldsSideBrowsers, once)
		res.WorldsOverCtxOnce = per(worldsSideWorlds, worldsSideContexts, once)
	}
	if contains(res.Sides, worldsSideContexts) {
		res.ContextsRatio = per(worldsSideContexts, worldsSideBrowsers, pss)
		res.WorldsOverCtx = per(worldsSideWorlds, worldsSideContexts, pss)
	}
	if len(rt.world) > 0 {
		r := &worldsRoundTrip{
			CallsPerRound: cfg.WorldsRTCalls, Batch: cfg.RTBatch, Warmup: cfg.RTWarmup,
			World: summarize(rt.world), Whole: summarize(rt.whole),
		}
		r.RatioP50 = ratio(r.World.P50, r.Whole.P50)
		r.RatioP90 = ratio(r.World.P90, r.Whole.P90)
		var rs []float64
		for i := range rt.worldBatch {
			if i < len(rt.wholeBatch) {
				rs = append(rs, ratio(us(rt.worldBatch[i]), us(rt.wholeBatch[i])))
			}
		}
		r.BatchRatioP50 = medianFloat(rs)
		res.RoundTrip = r
	}
}

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

// ownPids are the side's cdpvisor processes: those carrying the tag that
// run the cdpvisor executable (coordinators and their watchdogs).
func (st *worldsSideState) ownPids() map[int]bool {
	own := map[int]bool{}
	exes := map[string]bool{}
	for _, cv := range st.cvs {
		own[cv.pid] = true
		if e := exeOf(cv.pid); e != "" {
			exes[e] = true
		}
	}
	for _, pid := range processesWithEnv(st.tag) {
		if exes[exeOf(pid)] {
			own[pid] = true
		}
	}
	return own
}

// ownMemory sums the side's cdpvisor processes.
func (st *worldsSideState) ownMemory() (rollup, int) {
	var sum rollup
	n := 0
	for pid := range st.ownPids() {
		if r, err := readRollup(pid); err == nil {
			sum.add(r)
			n++
		}
	}
	return sum, n
}

// snapshot sums the side's browser processes now.
func (st *worldsSideState) snapshot() (memSnapshot, error) {
	table, err := procTable()
	if err != nil {
		return memSnapshot{}, err
	}
	inTree := map[int]bool{}
	for _, bp := range st.browsers {
		d := descendants(table, bp)
		if d == nil {
			return memSnapshot{}, fmt.Errorf("browser %d is gone", bp)
		}
		for _, pid := range d {
			inTree[pid] = true
		}
	}
	own := st.ownPids()
	var pids, detached []int
	for pid := range inTree {
		pids = append(pids, pid)
	}
	for _, pid := range processesWithEnv(st.tag) {
		if !inTree[pid] && !own[pid] {
			detached = append(detached, pid)
		}
	}
	sort.Ints(pids)
	sort.Ints(detached)
	snap := memSnapshot{ByKind: map[string]kindStat{}}
	mine := map[int]bool{}
	for _, pid := range append(pids, detached...) {
		r, err := readRollup(pid)
		if err != nil {
			continue // ended meanwhile
		}
		mine[pid] = true
		snap.Processes++
		snap.Total.add(r)
		if inTree[pid] {
			snap.Tree.add(r)
		} else {
			snap.Detached++
		}
		k := processKind(exeOf(pid), cmdlineOf(pid))
		ks := snap.ByKind[k]
		ks.N++
		ks.PSSkB += r.PSSkB
		ks.RSSkB += r.RSSkB
		snap.ByKind[k] = ks
	}
	if snap.Processes == 0 {
		return snap, errors.New("no browser process readable")
	}
	var read []int
	for pid := range mine {
		read = append(read, pid)
	}
	if kb, ok := uniqueFileKB(read); ok {
		snap.FileOncekB = kb
	}
	for _, pid := range pidsWithExe(exeOf(st.browsers[0])) {
		if !mine[pid] {
			snap.OtherChromium++
		}
	}
	return snap, nil
}

// roundTrip times Runtime.evaluate "1" on the first agent's first page,
// through its world and through the unprefixed endpoint, in alternating
// batches.
func (st *worldsSideState) roundTrip(ctx context.Context, rt *rtSamples) error {
	cfg := st.b.cfg
	a := st.agents[0]
	ws, err := resolveWS(ctx, st.cvs[0].endpoint)
	if err != nil {
		return err
	}
	u, err := dialCDP(ctx, ws)
	if err != nil {
		return err
	}
	defer u.Close()
	uSession, err := u.attach(ctx, a.targets[0], cfg.Timeout)
	if err != nil {
		return fmt.Errorf("unprefixed attach: %w", err)
	}
	type rtSide struct {
		name    string
		c       *cdpClient
		session string
	}
	sides := []rtSide{{"world", a.c, a.sessions[0]}, {"unprefixed", u, uSession}}
	for _, s := range sides {
		for i := 0; i < cfg.RTWarmup; i++ {
			if _, _, err := timedCall(ctx, s.c, s.session, "Runtime.evaluate", evalOne, cfg.Timeout); err != nil {
				return fmt.Errorf("warm-up %s: %w", s.name, err)
			}
		}
	}
	for _, stp := range interleave(cfg.WorldsRTCalls, cfg.RTBatch, 2) {
		s := sides[stp.Side]
		batch := make([]time.Duration, 0, stp.N)
		for i := 0; i < stp.N; i++ {
			d, _, err := timedCall(ctx, s.c, s.session, "Runtime.evaluate", evalOne, cfg.Timeout)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			batch = append(batch, d)
		}
		if stp.Side == 0 {
			rt.world = append(rt.world, batch...)
			rt.worldBatch = append(rt.worldBatch, percentile(batch, 50))
		} else {
			rt.whole = append(rt.whole, batch...)
			rt.wholeBatch = append(rt.wholeBatch, percentile(batch, 50))
		}
	}
	return nil
}

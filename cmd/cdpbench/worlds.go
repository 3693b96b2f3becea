package main

import (
	"context"
	"fmt"
	"strings"
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

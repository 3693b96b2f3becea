package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The crowd's arithmetic: what one side's run at one N amounts to, and the
// issue's verdict over the Ns of a side. Pure, so it is unit-tested.

// Bars of the issue, for cdpvisor at the largest N.
const (
	targetCrowdScale    = 0.8 // throughput at the largest N ÷ the best of any N
	targetCrowdFairness = 2.0 // slowest agent's time for its loops ÷ fastest's
)

// crowdLoop is one loop of one agent; times are ms since the Unix epoch,
// the clock every Node process shares.
type crowdLoop struct {
	Start   float64 `json:"s"`
	End     float64 `json:"e"`
	OK      bool    `json:"ok"`
	Timeout bool    `json:"to,omitempty"`
}

// crowdAgent is what the Node script tells of one agent.
type crowdAgent struct {
	SetupStart float64     `json:"setup0"`
	Ready      float64     `json:"ready"`              // it has its page (0: never had)
	SetupErr   string      `json:"setupErr,omitempty"` // its setup before the loops failed (it tries again in its loops)
	Loops      []crowdLoop `json:"loops"`
	Errors     []string    `json:"errors,omitempty"` // its first few failures' messages
}

// crowdRun is one side's run at one N.
type crowdRun struct {
	Side        string    `json:"side"`
	N           int       `json:"agents"`
	Loops       int       `json:"loops_per_agent"`
	Asked       int       `json:"loops_asked"`
	Done        int       `json:"loops_done"`
	Timeouts    int       `json:"timeouts"`
	Errors      int       `json:"errors"`
	SetupFailed int       `json:"agents_setup_failed"`   // had no page when the loops began
	NoPage      int       `json:"agents_never_had_page"` // not even in their loops
	SetupS      float64   `json:"setup_s"`               // until every agent that got its page had it
	WindowS     float64   `json:"window_s"`              // every agent at work
	WindowLoops float64   `json:"window_loops"`          // done within the window, a loop across an edge by its share
	WindowLPS   float64   `json:"window_lps"`            // loops/s within the window
	WholeS      float64   `json:"whole_s"`               // first loop's start to last loop's end
	WholeLPS    float64   `json:"whole_lps"`             // loops done ÷ WholeS
	P50ms       float64   `json:"loop_p50_ms"`           // loops done
	P99ms       float64   `json:"loop_p99_ms"`           // loops done
	FastestS    float64   `json:"fastest_s"`             // an agent's own time for its loops
	SlowestS    float64   `json:"slowest_s"`             //
	Fairness    float64   `json:"slowest_ratio"`         // SlowestS ÷ FastestS
	AgentS      []float64 `json:"agent_s,omitempty"`

	NodeCPUS      float64  `json:"node_cpu_s"`       // all Node processes, whole run
	NodeLoopCPUS  float64  `json:"node_loop_cpu_s"`  // theirs while the agents looped
	NodeLoopWallS float64  `json:"node_loop_wall_s"` // the longest process's loop phase
	CdpvisorCPUS  float64  `json:"cdpvisor_cpu_s,omitempty"`
	LoadStart     string   `json:"loadavg_start,omitempty"`
	FirstErrors   []string `json:"first_errors,omitempty"`
	Err           string   `json:"error,omitempty"` // the run itself failed
	version       string   // the browser's (crowdResult keeps it)
}

// summarizeCrowd fills r's figures from the agents' loops. An agent whose
// setup failed is counted and still in every figure: it tried again in
// its loops (those failed loops count as such).
func summarizeCrowd(r *crowdRun, agents []crowdAgent) {
	r.Asked = r.N * r.Loops
	setup0, ready := math.Inf(1), math.Inf(-1)
	winStart, winEnd := math.Inf(-1), math.Inf(1)
	first, last := math.Inf(1), math.Inf(-1)
	var times []time.Duration
	r.AgentS = nil
	for _, a := range agents {
		setup0 = math.Min(setup0, a.SetupStart)
		for _, e := range a.Errors {
			if len(r.FirstErrors) < 5 {
				r.FirstErrors = append(r.FirstErrors, e)
			}
		}
		if a.SetupErr != "" {
			r.SetupFailed++
			if len(r.FirstErrors) < 5 {
				r.FirstErrors = append(r.FirstErrors, "setup: "+a.SetupErr)
			}
		}
		if a.Ready != 0 {
			ready = math.Max(ready, a.Ready)
		} else {
			r.NoPage++
		}
		if len(a.Loops) == 0 { // never looped: only a broken script
			continue
		}
		start, end := a.Loops[0].Start, a.Loops[len(a.Loops)-1].End
		winStart, winEnd = math.Max(winStart, start), math.Min(winEnd, end)
		first, last = math.Min(first, start), math.Max(last, end)
		r.AgentS = append(r.AgentS, (end-start)/1000)
		for _, l := range a.Loops {
			switch {
			case l.OK:
				r.Done++
				times = append(times, time.Duration((l.End-l.Start)*float64(time.Millisecond)))
			case l.Timeout:
				r.Timeouts++
			default:
				r.Errors++
			}
		}
	}
	if !math.IsInf(ready, -1) {
		r.SetupS = (ready - setup0) / 1000
	}
	if len(r.AgentS) == 0 {
		return
	}
	r.WindowLoops, r.WindowS = windowLoops(agents, winStart, winEnd)
	r.WindowLPS = perSecond(r.WindowLoops, r.WindowS)
	r.WholeS = (last - first) / 1000
	r.WholeLPS = perSecond(float64(r.Done), r.WholeS)
	r.P50ms, r.P99ms = ms(percentile(times, 50)), ms(percentile(times, 99))
	r.FastestS, r.SlowestS = r.AgentS[0], r.AgentS[0]
	for _, s := range r.AgentS {
		r.FastestS, r.SlowestS = math.Min(r.FastestS, s), math.Max(r.SlowestS, s)
	}
	r.Fairness = ratio(r.SlowestS, r.FastestS)
}

// windowLoops is the loops done inside (from, to], the time every agent
// is at work (from the last agent's first loop to the first agent's
// last), a loop across an edge counted by its share inside: the agents
// start together and stay nearly in step, so counting only the loops
// that ended inside would miss most agents' last loop (a sixth of the
// work at 6 loops each). The window's length is in seconds (0 when the
// agents never all worked at once).
func windowLoops(agents []crowdAgent, from, to float64) (float64, float64) {
	if !(to > from) {
		return 0, 0
	}
	n := 0.0
	for _, a := range agents {
		for _, l := range a.Loops {
			if !l.OK || l.End <= l.Start {
				continue
			}
			n += max(0, min(l.End, to)-max(l.Start, from)) / (l.End - l.Start)
		}
	}
	return n, (to - from) / 1000
}

func perSecond(n, s float64) float64 {
	if s <= 0 {
		return 0
	}
	return n / s
}

// crowdVerdict is the headline for one side over the Ns of a run.
type crowdVerdict struct {
	Side      string   `json:"side"`
	LargestN  int      `json:"largest_n"`
	AtLargest float64  `json:"lps_at_largest_n"`
	BestN     int      `json:"best_n"`
	Best      float64  `json:"best_lps"`
	Scale     float64  `json:"scale"`          // AtLargest ÷ Best
	Fairness  float64  `json:"worst_fairness"` // the largest slowest ÷ fastest of any N
	OK        bool     `json:"ok"`
	Why       []string `json:"why,omitempty"` // what missed a bar
}

// crowdVerdictOf judges a side's runs (window throughput): the largest N
// reaches ≥ 0.8× the best N, and at every N every loop was done, none
// failed and the slowest agent took ≤ 2× the fastest.
func crowdVerdictOf(side string, runs []crowdRun) crowdVerdict {
	v := crowdVerdict{Side: side}
	for _, r := range runs {
		if r.Side != side {
			continue
		}
		if r.N > v.LargestN {
			v.LargestN, v.AtLargest = r.N, r.WindowLPS
		}
		if r.WindowLPS > v.Best {
			v.BestN, v.Best = r.N, r.WindowLPS
		}
		v.Fairness = math.Max(v.Fairness, r.Fairness)
		switch {
		case r.Err != "":
			v.Why = append(v.Why, fmt.Sprintf("N=%d failed", r.N))
		case r.Done < r.Asked || r.Timeouts+r.Errors > 0:
			v.Why = append(v.Why, fmt.Sprintf("N=%d: %d/%d loops, %d time-outs, %d errors", r.N, r.Done, r.Asked, r.Timeouts, r.Errors))
		}
		if r.Fairness > targetCrowdFairness {
			v.Why = append(v.Why, fmt.Sprintf("N=%d: slowest ×%.2f", r.N, r.Fairness))
		}
	}
	v.Scale = ratio(v.AtLargest, v.Best)
	if v.Scale < targetCrowdScale {
		v.Why = append(v.Why, fmt.Sprintf("N=%d at ×%.2f of N=%d", v.LargestN, v.Scale, v.BestN))
	}
	v.OK = v.LargestN > 0 && len(v.Why) == 0
	return v
}

// crowdLoopsFor is each agent's loops at n agents: about 240 loops a
// side's run at full size (30–60 s on 2 cores at the 4–7 loops/s
// measured), 48 with --quick; never fewer than 3 each.
func crowdLoopsFor(n int, quick bool) int {
	total := 240
	if quick {
		total = 48
	}
	return max(3, total/n)
}

// crowdCounts reads --crowd-counts.
func crowdCounts(s string) ([]int, error) {
	var out []int
	for _, f := range splitComma(s) {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--crowd-counts: %q is not a count of agents", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--crowd-counts: no count")
	}
	return out, nil
}

// crowdOrder is the sides' order at the i-th N: rotated by one each N,
// so no side always runs first (with two sides, they alternate).
func crowdOrder(sides []string, i int) []string {
	out := make([]string, len(sides))
	for j := range sides {
		out[j] = sides[(i+j)%len(sides)]
	}
	return out
}

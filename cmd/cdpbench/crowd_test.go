package main

import (
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

// agentLoops is an agent set up from -1 ms to start-1 (ms) that loops n
// times of each ms from start, all done.
func agentLoops(start, each float64, n int) crowdAgent {
	a := crowdAgent{SetupStart: -1, Ready: start - 1}
	for i := range n {
		s := start + float64(i)*each
		a.Loops = append(a.Loops, crowdLoop{Start: s, End: s + each, OK: true})
	}
	return a
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSummarizeCrowdWindow(t *testing.T) {
	// Agent 1 starts at 0 and loops 10× 1 s; agent 2 starts at 2 s and
	// loops 4× 2 s. All at work: from 2 s (agent 2's first loop) to 10 s
	// (agent 1's last end): agent 1's loops ending at 3…10 s (8) and agent
	// 2's ending at 4, 6, 8, 10 s (4): 12 loops in 8 s.
	agents := []crowdAgent{agentLoops(0, 1000, 10), agentLoops(2000, 2000, 4)}
	r := crowdRun{N: 2, Loops: 10}
	summarizeCrowd(&r, agents)
	if !near(r.WindowLoops, 12) || !near(r.WindowS, 8) || !near(r.WindowLPS, 1.5) {
		t.Errorf("window: %v loops in %v s = %v/s, want 12 in 8 s", r.WindowLoops, r.WindowS, r.WindowLPS)
	}
	// Whole run: 14 loops from 0 to 10 s.
	if r.Done != 14 || !near(r.WholeS, 10) || !near(r.WholeLPS, 1.4) {
		t.Errorf("whole run: %d in %v s = %v/s", r.Done, r.WholeS, r.WholeLPS)
	}
	if r.Asked != 20 {
		t.Errorf("asked %d, want 20", r.Asked)
	}
	if !near(r.FastestS, 8) || !near(r.SlowestS, 10) || !near(r.Fairness, 1.25) {
		t.Errorf("fairness %v ÷ %v = %v", r.SlowestS, r.FastestS, r.Fairness)
	}
	if !near(r.SetupS, 2) {
		t.Errorf("setup %v s, want 2 (the last agent's page)", r.SetupS)
	}
	if r.P50ms != 1000 || r.P99ms != 2000 {
		t.Errorf("p50/p99 %v/%v", r.P50ms, r.P99ms)
	}
}

func TestSummarizeCrowdFailures(t *testing.T) {
	a := agentLoops(0, 1000, 4)
	a.Loops[1].OK, a.Loops[1].Timeout = false, true
	a.Loops[2].OK = false
	a.Errors = []string{"Navigation timeout of 30000 ms exceeded", "boom"}
	agents := []crowdAgent{a, {SetupErr: "PUT world: HTTP 500"}}
	r := crowdRun{N: 2, Loops: 4}
	summarizeCrowd(&r, agents)
	if r.Done != 2 || r.Timeouts != 1 || r.Errors != 1 || r.SetupFailed != 1 || r.Asked != 8 {
		t.Errorf("done %d time-outs %d errors %d setup failed %d asked %d", r.Done, r.Timeouts, r.Errors, r.SetupFailed, r.Asked)
	}
	// The window is the one working agent's run; failed loops are not in it.
	if !near(r.WindowLoops, 2) || !near(r.WindowS, 4) {
		t.Errorf("window %v loops in %v s", r.WindowLoops, r.WindowS)
	}
	if len(r.FirstErrors) != 3 || !strings.HasPrefix(r.FirstErrors[2], "setup: ") || r.NoPage != 1 {
		t.Errorf("first errors %q, %d never had a page", r.FirstErrors, r.NoPage)
	}
}

func TestSummarizeCrowdLateSetup(t *testing.T) {
	// Agent 2's setup timed out; its first loop (0–1 s) failed making its
	// page, which it had at 1.5 s, then it looped twice from 1 s.
	late := agentLoops(1000, 1000, 2)
	late.SetupErr, late.Ready = "Timed out after waiting 30000ms", 1500
	late.Loops = append([]crowdLoop{{Start: 0, End: 1000, Timeout: true}}, late.Loops...)
	r := crowdRun{N: 2, Loops: 3}
	summarizeCrowd(&r, []crowdAgent{agentLoops(0, 1000, 3), late})
	if r.SetupFailed != 1 || r.NoPage != 0 || r.Timeouts != 1 || r.Done != 5 || !near(r.SetupS, 1.501) {
		t.Errorf("setup failed %d, never %d, time-outs %d, done %d, setup %v s", r.SetupFailed, r.NoPage, r.Timeouts, r.Done, r.SetupS)
	}
	// Both at work 0–3 s: 3 + 2 loops done.
	if !near(r.WindowLoops, 5) || !near(r.WindowS, 3) {
		t.Errorf("window %v loops in %v s", r.WindowLoops, r.WindowS)
	}
}

func TestWindowLoopsEdges(t *testing.T) {
	// In step: two agents of 3 loops of 1 s, the second 0.5 s late. The
	// window is 0.5–3 s; agent 1's first loop is half in it, agent 2's
	// last half: 2.5 + 2.5 loops in 2.5 s, 2 loops/s (both agents' rate),
	// where counting the loops that ended inside would give 3 + 2.
	agents := []crowdAgent{agentLoops(0, 1000, 3), agentLoops(500, 1000, 3)}
	n, s := windowLoops(agents, 500, 3000)
	if !near(n, 5) || !near(s, 2.5) {
		t.Errorf("window %v loops in %v s, want 5 in 2.5", n, s)
	}
	// A failed loop is not work done.
	agents[0].Loops[2].OK = false
	if n, _ := windowLoops(agents, 500, 3000); !near(n, 4) {
		t.Errorf("with a failed loop: %v, want 4", n)
	}
}

func TestWindowLoopsNoOverlap(t *testing.T) {
	// One agent finished before the other began: never all at work.
	agents := []crowdAgent{agentLoops(0, 1000, 2), agentLoops(5000, 1000, 2)}
	r := crowdRun{N: 2, Loops: 2}
	summarizeCrowd(&r, agents)
	if r.WindowLoops != 0 || r.WindowS != 0 || r.WindowLPS != 0 {
		t.Errorf("window %v loops in %v s = %v/s, want none", r.WindowLoops, r.WindowS, r.WindowLPS)
	}
	if r.Fairness != 1 {
		t.Errorf("fairness %v", r.Fairness)
	}
}

func TestSummarizeCrowdNoAgent(t *testing.T) {
	r := crowdRun{N: 1, Loops: 3}
	summarizeCrowd(&r, []crowdAgent{{SetupErr: "x"}})
	if r.Done != 0 || r.WindowLPS != 0 || r.SetupFailed != 1 || r.Fairness != 0 {
		t.Errorf("%+v", r)
	}
}

func crowdRunOf(side string, n int, lps, fair float64) crowdRun {
	return crowdRun{Side: side, N: n, Loops: 3, Asked: 3 * n, Done: 3 * n, WindowLPS: lps, Fairness: fair}
}

func TestCrowdVerdict(t *testing.T) {
	runs := []crowdRun{
		crowdRunOf("cdpvisor", 8, 6, 1.1), crowdRunOf("chromium", 8, 7, 1.1),
		crowdRunOf("cdpvisor", 16, 6.5, 1.2), crowdRunOf("chromium", 16, 7, 1.1),
		crowdRunOf("cdpvisor", 64, 5.3, 1.5), crowdRunOf("chromium", 64, 3, 3.1),
	}
	v := crowdVerdictOf("cdpvisor", runs)
	if !v.OK || v.LargestN != 64 || v.BestN != 16 || !near(v.Scale, 5.3/6.5) || v.Fairness != 1.5 {
		t.Errorf("cdpvisor: %+v", v)
	}
	c := crowdVerdictOf("chromium", runs)
	if c.OK || c.BestN != 8 || !near(c.Scale, 3.0/7) || len(c.Why) != 2 {
		t.Errorf("chromium: %+v", c)
	}

	// Just under the bar, one loop missing, a time-out, a failed run.
	runs[4].WindowLPS = 0.79 * 6.5
	if v := crowdVerdictOf("cdpvisor", runs); v.OK {
		t.Errorf("×0.79 passed: %+v", v)
	}
	runs[4].WindowLPS = 6
	runs[2].Done--
	if v := crowdVerdictOf("cdpvisor", runs); v.OK || len(v.Why) != 1 || !strings.Contains(v.Why[0], "N=16") {
		t.Errorf("a loop missing passed: %+v", v)
	}
	runs[2].Done++
	runs[0].Timeouts = 1
	if v := crowdVerdictOf("cdpvisor", runs); v.OK {
		t.Errorf("a time-out passed: %+v", v)
	}
	runs[0].Timeouts = 0
	runs[4].Err = "serve did not start"
	if v := crowdVerdictOf("cdpvisor", runs); v.OK {
		t.Errorf("a failed run passed: %+v", v)
	}
	if v := crowdVerdictOf("cdpvisor-unpaced", runs); v.OK || v.LargestN != 0 {
		t.Errorf("a side that did not run passed: %+v", v)
	}
}

func TestCrowdLoopsOrderCounts(t *testing.T) {
	for _, c := range []struct {
		n     int
		quick bool
		want  int
	}{{8, false, 30}, {16, false, 15}, {32, false, 7}, {64, false, 3}, {100, false, 3}, {4, true, 12}, {8, true, 6}} {
		if got := crowdLoopsFor(c.n, c.quick); got != c.want {
			t.Errorf("crowdLoopsFor(%d, %v) = %d, want %d", c.n, c.quick, got, c.want)
		}
	}
	sides := []string{"a", "b", "c"}
	if got := crowdOrder(sides, 1); !slices.Equal(got, []string{"b", "c", "a"}) {
		t.Errorf("order %v", got)
	}
	if got := crowdOrder([]string{"a", "b"}, 3); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("order %v", got)
	}
	if got, err := crowdCounts("8, 16,64"); err != nil || !slices.Equal(got, []int{8, 16, 64}) {
		t.Errorf("counts %v %v", got, err)
	}
	for _, bad := range []string{"", "0", "x"} {
		if _, err := crowdCounts(bad); err == nil {
			t.Errorf("counts %q accepted", bad)
		}
	}
}

func TestCrowdConfig(t *testing.T) {
	c, err := parseConfig([]string{"--launch", "--only", "crowd", "--quick"}, io.Discard)
	if err != nil || c.CrowdCounts != "4,8" || c.CrowdSides != "chromium,cdpvisor,cdpvisor-unpaced" || c.wantsPair() {
		t.Errorf("quick crowd: %v %q %q pair %v", err, c.CrowdCounts, c.CrowdSides, c.wantsPair())
	}
	if c, _ := parseConfig([]string{"--launch"}, io.Discard); c.wants("crowd") || c.CrowdCounts != "8,16,32,64" {
		t.Errorf("crowd is opt-in; full counts %q", c.CrowdCounts)
	}
	if _, err := parseConfig([]string{"--launch", "--only", "crowd", "--crowd-sides", "chromium,firefox"}, io.Discard); err == nil {
		t.Error("an unknown side was accepted")
	}
}

func TestCrowdData(t *testing.T) {
	r := &crowdResult{Counts: []int{8, 16}, Sides: []string{"chromium", "cdpvisor"}, Runs: []crowdRun{
		{Side: "chromium", N: 8, WindowLPS: 6.5, WholeLPS: 6, P50ms: 1200},
		{Side: "cdpvisor", N: 8, Err: "x"},
	}}
	got := crowdData(r)
	want := "# N chromium_window_lps chromium_whole_lps chromium_p50_s cdpvisor_window_lps cdpvisor_whole_lps cdpvisor_p50_s\n" +
		"8 6.500 6.000 1.200 NaN NaN NaN\n16 NaN NaN NaN NaN NaN NaN\n"
	if got != want {
		t.Errorf("data:\n%s\nwant:\n%s", got, want)
	}
	if p := crowdDataPath("", "docs/crowd.png"); p != "docs/crowd.dat" {
		t.Errorf("data beside the plot: %q", p)
	}
}

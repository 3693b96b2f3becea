package main

import (
	"strings"
	"testing"
	"time"
)

// A failure counts as in flight at a fault when its loop began before the
// fault's end and failed after the fault began, or when its client heard
// the loop's page close just after a kill and after the loop began; an
// agent's kill counts for that agent only.
func TestSoakFailuresInFlightAtAFaultAreToldApart(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	r := &soakResult{
		Faults: []soakFault{
			{Kind: "kill", At: at(100), Until: at(100)},
			{Kind: "hang", At: at(200), Until: at(225)},
			{Kind: "agent", At: at(300), Until: at(300), Agent: "a01"},
			{Kind: "kill", At: at(400), Until: at(400), Missed: "no browser running"},
		},
		PerAgent: []soakAgentStats{
			{Agent: "a00", Loops: 3, RunsDone: 1, Failures: []soakFailure{
				{T0: at(90), T1: at(103)},                 // the kill
				{T0: at(102), T1: at(104)},                // begun just after the kill
				{T0: at(101), T1: at(103), Gone: at(102)}, // on a page the kill took, its close heard after
				{T0: at(130), T1: at(131), Gone: at(130)}, // a page closed long after the kill
				{T0: at(210), T1: at(240)},                // began during the hang
				{T0: at(290), T1: at(310)},                // another agent's kill
				{T0: at(390), T1: at(410)},                // a kill that was not made
				{T0: at(10), T1: at(40)},                  // nothing
			}},
			{Agent: "a01", RunsKilled: 1, Failures: []soakFailure{{T0: at(290), T1: at(301)}}},
		},
	}
	r.classify()
	if r.FailuresInFlight != 4 || r.FailuresPageGone != 1 || r.FailuresAfterKill != 1 || r.FailuresOther != 4 || len(r.OtherFailures) != 4 {
		t.Fatalf("in flight %d, just after a kill %d, others %d (%+v); want 4, 1 and 4", r.FailuresInFlight, r.FailuresAfterKill, r.FailuresOther, r.OtherFailures)
	}
	if r.RunsDone != 1 || r.RunsKilled != 1 || r.LoopsDone != 3 {
		t.Fatalf("runs %d done, %d killed, %d loops", r.RunsDone, r.RunsKilled, r.LoopsDone)
	}
	if r.FailuresStalled != 2 { // the hang's and the nothing's, 30 s each
		t.Errorf("%d failures after a wait of 30 s or more, want 2", r.FailuresStalled)
	}
	if got := r.PerAgent[0].Failures[2].Fault; got != faultPageGone {
		t.Fatalf("a failure on a page the kill took: fault %q", got)
	}
	if got := r.PerAgent[0].Failures[4].Fault; got != "hang" {
		t.Fatalf("a failure during the hang: fault %q", got)
	}
}

func TestSoakSpreadIsTheLargestDistanceFromTheMedian(t *testing.T) {
	sp := spreadOfSamples([]float64{100, 90, 110, 100, 120})
	if sp.Median != 100 || sp.Min != 90 || sp.Max != 120 || sp.SpreadPct != 20 || sp.First != 100 || sp.Last != 120 {
		t.Fatalf("spread %+v", sp)
	}
}

// The levels are 5-minute medians after the settle time, while every agent
// works: a fault's dip, the idle stop's pause (its whole window) and the
// end's tail move the samples' spread, not the levels'; a growth moves the
// levels.
func TestSoakLevelsLeaveFaultsOut(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	r := &soakResult{Start: t0, Idle: soakIdle{At: t0.Add(17 * time.Minute), WaitedS: 40}}
	for s := 0; s < 25*60; s += 10 {
		g := 100
		switch {
		case s%120 < 10: // a dip after each kill
			g = 60
		case s >= 17*60 && s < 17*60+70: // the idle pause
			g = 20
		case s >= 20*60: // the end's tail
			g = 30
		}
		r.Samples = append(r.Samples, soakSample{T: float64(s), Goroutines: g, RSSMB: 40 + float64(s)/60, FDs: 40})
	}
	r.summarize(5*time.Minute, 20*time.Minute)
	if g := r.GoroutinesLevels; len(g.Levels) != 2 || g.SpreadPct != 0 || r.Goroutines.SpreadPct < 50 {
		t.Errorf("goroutines: levels %+v, samples' spread %.0f %%: want 2 levels of 100 (the idle stop's window left out), the samples' spread wide", g, r.Goroutines.SpreadPct)
	}
	if g := r.GoroutinesLevels; !g.steady() {
		t.Errorf("goroutines %+v not steady", g)
	}
	if l := r.RSSLevels; len(l.Levels) != 2 || l.steady() || l.GrowthPct < 10 {
		t.Errorf("RSS grew a MB a minute: levels %+v, want a growth over 10 %%, not steady", l)
	}
}

// The verdicts hold the bar: a failure begun just after a kill and
// a journal left are misses, counted apart but not let off.
func TestSoakVerdictsLetNothingOff(t *testing.T) {
	verdict := func(r *soakResult, label string) string {
		for _, row := range soakRows(r) {
			if strings.HasPrefix(row.Figure, label) {
				return row.Met
			}
		}
		t.Fatalf("no row %q", label)
		return ""
	}
	clean := func() *soakResult { return &soakResult{} }
	if v := verdict(clean(), "soak: failures in flight"); v != met(true) {
		t.Fatalf("a clean run's failures: %q", v)
	}
	r := clean()
	r.FailuresAfterKill = 1
	if v := verdict(r, "soak: failures in flight"); v != met(false) {
		t.Errorf("a failure begun just after a kill passed: %q", v)
	}
	if v := verdict(clean(), "soak: worlds' journals left"); v != met(true) {
		t.Fatalf("a clean run's journals: %q", v)
	}
	r = clean()
	r.Journals = soakJournals{Files: 1, LargestKB: 3}
	if v := verdict(r, "soak: worlds' journals left"); v != met(false) {
		t.Errorf("a journal left passed: %q", v)
	}
	r = clean()
	r.Samples = []soakSample{{T: 1, StateLargestKB: 900}, {T: 2, StateLargestKB: 1100}}
	r.summarize(0, time.Minute)
	if v := verdict(r, "soak: state dir"); v != met(false) || r.StateLargestKB != 1100 {
		t.Errorf("a state file past a journal's cap passed: %q (largest %d KB)", v, r.StateLargestKB)
	}
}

func TestHeapProfilesGoBesideTheSamples(t *testing.T) {
	for _, c := range []struct{ csv, png, settle, end string }{
		{"/r/soak.csv", "/r/plot.png", "/r/soak-heap-settle.pb.gz", "/r/soak-heap-end.pb.gz"},
		{"", "/r/plot.png", "/r/plot-heap-settle.pb.gz", "/r/plot-heap-end.pb.gz"},
		{"", "", "", ""},
	} {
		settle, end := heapFiles(c.csv, c.png)
		if settle != c.settle || end != c.end {
			t.Errorf("heapFiles(%q, %q) = %q, %q; want %q, %q", c.csv, c.png, settle, end, c.settle, c.end)
		}
	}
	if got := samplesPath("", "/r/plot.png"); got != "/r/plot.csv" {
		t.Errorf("samplesPath beside the plot = %q", got)
	}
}

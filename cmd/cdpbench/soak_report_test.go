package main

import (
	"testing"
	"time"
)

// A failure counts as in flight at a fault when its loop began before the
// fault's end and failed after the fault began; an agent's kill counts for
// that agent only.
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
				{T0: at(90), T1: at(103)},  // the kill
				{T0: at(210), T1: at(240)}, // began during the hang
				{T0: at(290), T1: at(310)}, // another agent's kill
				{T0: at(390), T1: at(410)}, // a kill that was not made
				{T0: at(10), T1: at(40)},   // nothing
			}},
			{Agent: "a01", RunsKilled: 1, Failures: []soakFailure{{T0: at(290), T1: at(301)}}},
		},
	}
	r.classify()
	if r.FailuresInFlight != 3 || r.FailuresOther != 3 || len(r.OtherFailures) != 3 {
		t.Fatalf("in flight %d, others %d (%+v); want 3 and 3", r.FailuresInFlight, r.FailuresOther, r.OtherFailures)
	}
	if r.RunsDone != 1 || r.RunsKilled != 1 || r.LoopsDone != 3 {
		t.Fatalf("runs %d done, %d killed, %d loops", r.RunsDone, r.RunsKilled, r.LoopsDone)
	}
	if got := r.PerAgent[0].Failures[1].Fault; got != "hang" {
		t.Fatalf("a failure during the hang: fault %q", got)
	}
}

func TestSoakSpreadIsTheLargestDistanceFromTheMedian(t *testing.T) {
	sp := spreadOfSamples([]float64{100, 90, 110, 100, 120})
	if sp.Median != 100 || sp.Min != 90 || sp.Max != 120 || sp.SpreadPct != 20 || sp.First != 100 || sp.Last != 120 {
		t.Fatalf("spread %+v", sp)
	}
}

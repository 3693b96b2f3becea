package main

import "testing"

// The journal's figure is on over off, overall and per round (each round
// the --node-calls calls of a side in the order made); its goal is met
// within 1.05× at p50.
func TestJournalFigure(t *testing.T) {
	rounds := func(values ...float64) []float64 {
		var v []float64
		for _, x := range values {
			v = append(v, x, x, x)
		}
		return v
	}
	r := journalFigure(map[string][]float64{
		nodeSideDirect: rounds(90, 90), journalSideOn: rounds(112, 120), journalSideOff: rounds(100, 100),
	}, 2, 3, 1)
	if len(r.RoundRatios) != 2 || r.RoundRatios[0] != 1.12 || r.RoundRatios[1] != 1.2 {
		t.Errorf("round ratios %v, want [1.12 1.2]", r.RoundRatios)
	}
	if rows := journalRows(r); r.RatioP50 != 1.12 || rows[0].Met != metNo {
		t.Errorf("ratio %v, row %+v: want 1.12, not met", r.RatioP50, rows[0])
	}
	r = journalFigure(map[string][]float64{
		nodeSideDirect: rounds(90, 90), journalSideOn: rounds(101, 104), journalSideOff: rounds(100, 100),
	}, 2, 3, 1)
	if rows := journalRows(r); rows[0].Met != metYes {
		t.Errorf("ratio %v, row %+v: want met", r.RatioP50, rows[0])
	}
}

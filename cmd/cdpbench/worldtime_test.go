package main

import (
	"strings"
	"testing"
)

// The figure's rows: its goal is met only with both the p50 bound and the
// ratio to Chromium's own context path.
func TestWorldTimeRows(t *testing.T) {
	for _, c := range []struct {
		worlds, chromium float64
		met              string
	}{{40, 38, metYes}, {70, 65, metNo}, {50, 30, metNo}} {
		r := &worldTimeResult{Samples: 50, Sides: map[string]worldTimeSide{
			worldTimeWorlds: {P50: c.worlds, P99: c.worlds * 2}, worldTimeChromium: {P50: c.chromium, P99: c.chromium * 2},
			worldTimeBrowsers: {P50: 900, P99: 1200},
		}}
		r.Ratio = ratio(c.worlds, c.chromium)
		rows := worldTimeRows(r)
		if len(rows) != 3 || rows[0].Met != c.met || !strings.Contains(rows[2].Proxy, "900.0 / 1200.0") {
			t.Errorf("worlds %v, chromium %v: rows %+v, want met %q", c.worlds, c.chromium, rows, c.met)
		}
	}
}

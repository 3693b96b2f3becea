package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The figure's added time is kept − empty, of the percentiles and of the
// samples side by side; its goal is met only within +50 ms at p50.
func TestRestoreFigure(t *testing.T) {
	c := config{RestoreSamples: 4, RestoreCookies: 200, RestoreOrigins: 20, RestoreKeys: 10}
	for _, k := range []struct {
		kept []float64
		met  string
	}{{[]float64{110, 120, 130, 140}, metYes}, {[]float64{170, 180, 190, 400}, metNo}} {
		r := restoreFigure(c, 1000,
			map[string][]float64{restoreKept: k.kept, restoreEmpty: {100, 110, 120, 130}, restorePWState: {300, 310, 320, 330}, restorePWEmpty: {100, 100, 100, 100}},
			map[string][]float64{restoreKept: k.kept, restoreEmpty: {100, 110, 120, 130}})
		rows := restoreRows(r)
		if len(rows) != 7 || rows[0].Met != k.met || r.AddedPW.P50 != 210 {
			t.Errorf("kept %v: rows %+v, added %+v, want met %q", k.kept, rows, r.Added, k.met)
		}
		if want := k.kept[1] - 110; r.Added.P50 != want || r.Added.PairedP50 != want {
			t.Errorf("kept %v: added %+v, want p50 and paired p50 %v", k.kept, r.Added, want)
		}
	}
	// A miss fails the goal, whatever the times, and is no time: its
	// sample is left out, the others stay side by side.
	r := restoreFigure(c, 1000, map[string][]float64{restoreKept: {-1, 110, 120, 130}, restoreEmpty: {100, 110, 120, 130}}, nil)
	if r.Connect[restoreKept].P50 != 120 || r.Added.PairedP50 != 0 || r.Added.PairedP99 != 0 {
		t.Errorf("a miss counted as a time: %+v %+v", r.Connect, r.Added)
	}
	r.Misses = []restoreMiss{{Side: restoreKept}, {Side: restoreKept}}
	if rows := restoreRows(r); rows[0].Met != metNo || rows[1].Proxy != "2" || rows[1].Diff != "kept 2" {
		t.Errorf("two misses: %+v", rows[:2])
	}
	// Negative differences are kept as they are.
	r = restoreFigure(c, 1000, map[string][]float64{restoreKept: {90, 95, 100, 105}, restoreEmpty: {100, 110, 120, 130}}, nil)
	if r.Added.PairedP50 >= 0 || !strings.HasPrefix(restoreRows(r)[0].Diff, "-") {
		t.Errorf("a faster kept world: %+v", r.Added)
	}
}

// The state has the cookies and origins asked for, each origin's token
// among its keys, and no more cookies on one domain than Chromium keeps
// (180).
func TestRestoreState(t *testing.T) {
	origins := []string{"http://127.0.0.1:1", "http://127.0.0.1:2"}
	data, tokens := restoreState(origins, 200, 10)
	var st struct {
		Cookies []struct{ Domain string }
		Origins []struct {
			Origin       string
			LocalStorage []struct{ Name, Value string }
		}
	}
	if err := json.Unmarshal(data, &st); err != nil || len(st.Cookies) != 200 || len(st.Origins) != 2 {
		t.Fatalf("state: %v: %d cookies, %d origins", err, len(st.Cookies), len(st.Origins))
	}
	perDomain := map[string]int{}
	for _, c := range st.Cookies {
		perDomain[c.Domain]++
	}
	for d, n := range perDomain {
		if n > 180 {
			t.Errorf("%d cookies on %s", n, d)
		}
	}
	for _, o := range st.Origins {
		if len(o.LocalStorage) != 10 || o.LocalStorage[0].Name != "token" || o.LocalStorage[0].Value != tokens[o.Origin] {
			t.Errorf("origin %s: %+v", o.Origin, o.LocalStorage[:1])
		}
	}
}

package main

import (
	"strings"
	"testing"
)

func TestFormatTableAligns(t *testing.T) {
	rows := []row{
		{"round trip p50 (µs)", "401.1", "592.2", "+191.1 µs", "≤ +20 µs", "NO"},
		{"x", "1", "2", "×0.5", "–", "–"},
	}
	out := formatTable(rows)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want header, rule and 2 rows:\n%s", out)
	}
	// every column starts at the same rune offset on every line
	col := func(line, cell string) int {
		i := strings.Index(line, cell)
		if i < 0 {
			t.Fatalf("%q not in %q", cell, line)
		}
		return len([]rune(line[:i]))
	}
	if col(lines[0], "cdpvisor") != col(lines[2], "592.2") || col(lines[2], "592.2") != col(lines[3], "2") {
		t.Errorf("cdpvisor column not aligned:\n%s", out)
	}
	if col(lines[0], "met?") != col(lines[2], "NO") {
		t.Errorf("met column not aligned:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], "----") {
		t.Errorf("no rule under the header:\n%s", out)
	}
}

func TestFormatMarkdownEscapes(t *testing.T) {
	md := formatMarkdown([]row{{"a|b", "1", "2", "3", "4", "yes"}})
	if !strings.Contains(md, `a\|b`) || !strings.HasPrefix(md, "| figure |") {
		t.Errorf("markdown:\n%s", md)
	}
}

func findRow(rows []row, prefix string) *row {
	for i := range rows {
		if strings.HasPrefix(rows[i].Figure, prefix) {
			return &rows[i]
		}
	}
	return nil
}

func TestBuildRowsTargets(t *testing.T) {
	r := &report{
		RoundTrip: &roundTripResult{Direct: summary{P50: 400}, Proxy: summary{P50: 415}, DiffP50: 15,
			Control: &summary{P50: 390}, RelayDiffP50: 25},
		Large: &largeResult{Transfers: []transferResult{
			{Name: "1 MB string", DirectMed: 50, ProxyMed: 10, Ratio: 0.2},
			{Name: "10 MB string", DirectMed: 50, ProxyMed: 44, Ratio: 0.88},
		}},
		NodeRoundTrip: summarizeNode(map[string][]float64{
			nodeSideDirect: {100, 100, 100, 500}, nodeSideCdpvisor: {180, 180, 180, 850},
			nodeSideNode: {200, 200, 200, 700}, nodeSideGo: {150, 150, 150, 600},
		}, config{NodeRounds: 1, NodeCalls: 4, NodeSlice: 2}),
		Fanin:     &faninResult{Clients: 100, Requests: 500, P99Ratio: 1.5, Proxy: faninPhase{Errors: 0}},
		ColdStart: &coldResult{BareMedian: 300, ProxyMedian: 360, Diff: 60},
		Recovery:  &recoveryResult{BareMedian: 300, RecoveryMedian: 390, Diff: 90},
		Memory:    &memoryResult{IdleFresh: procMem{RSSkB: 12 * 1024}, Clients: 100, WithClients: procMem{RSSkB: 80 * 1024}},
	}
	rows := buildRows(r)
	want := map[string]string{
		"round trip p50 (µs)":          notApplicable, // the Node client's figure has the target
		"round trip p50, same browser": notApplicable,
		"p50 overhead ÷ Node relay's":  metYes,        // 80 µs of 100 µs
		"p99 overhead ÷ Node relay's":  metNo,         // 300 µs of 200 µs: ×1.5 is the most
		"1 MB string":                  notApplicable, // no target on 1 MB
		"10 MB string":                 metNo,
		"fan-in 100×500 errors":        metYes,
		"fan-in 100×500 p99":           metYes,
		"cold start":                   metNo,
		"recovery":                     metYes,
		"cdpvisor RSS idle":            metYes,
		"cdpvisor RSS, 100 clients":    metNo,
	}
	for prefix, m := range want {
		rw := findRow(rows, prefix)
		if rw == nil {
			t.Errorf("no row %q", prefix)
			continue
		}
		if rw.Met != m {
			t.Errorf("row %q met = %q, want %q", rw.Figure, rw.Met, m)
		}
	}
}

func TestOverheadRatioWithNoise(t *testing.T) {
	for _, c := range []struct {
		cv, node, limit float64
		met             bool
	}{
		{80, 100, 1, true}, {120, 100, 1, false}, {150, 100, 1.5, true},
		{-878, -264, 1.5, true}, // both lost in noise, cdpvisor's lower
		{100, -50, 1.5, false},  // no ratio of a negative: compared as is
		{0, 0, 1, true},
	} {
		if _, met := overheadRatio(c.cv, c.node, c.limit); met != c.met {
			t.Errorf("overheadRatio(%v, %v, %v) met %v, want %v", c.cv, c.node, c.limit, met, c.met)
		}
	}
}

func TestBuildRowsSkippedAndErrors(t *testing.T) {
	r := &report{
		Skipped: map[string]string{"coldstart": skippedNeedLaunch, "recovery": skippedNeedLaunch, "memory": skippedNeedLaunch},
		Errors:  map[string]string{"roundtrip": "boom"},
	}
	rows := buildRows(r)
	if rw := findRow(rows, "round trip"); rw == nil || rw.Met != metNo || rw.Diff != "boom" {
		t.Errorf("error row: %+v", rw)
	}
	if rw := findRow(rows, "cold start"); rw == nil || rw.Met != "skipped" || !strings.Contains(rw.Diff, "--launch") {
		t.Errorf("skipped row: %+v", rw)
	}
	if findRow(rows, "large") == nil || findRow(rows, "fan-in") == nil {
		t.Error("figures not run must still have a row")
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("first\nsecond", 70); got != "first" {
		t.Errorf("= %q", got)
	}
	if got := oneLine("abcdef", 4); got != "abc…" {
		t.Errorf("= %q", got)
	}
}

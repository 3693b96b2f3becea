package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDescendants(t *testing.T) {
	// 1 ← 10 (browser) ← 11 (zygote) ← 12 (renderer); 10 ← 13 (gpu);
	// 1 ← 20 (another browser) ← 21; 1 ← 30 (crash handler, reparented)
	ppids := map[int]int{1: 0, 10: 1, 11: 10, 12: 11, 13: 10, 20: 1, 21: 20, 30: 1}
	if got := descendants(ppids, 10); !reflect.DeepEqual(got, []int{10, 11, 12, 13}) {
		t.Errorf("descendants(10) = %v", got)
	}
	if got := descendants(ppids, 21); !reflect.DeepEqual(got, []int{21}) {
		t.Errorf("a leaf = %v", got)
	}
	if got := descendants(ppids, 99); got != nil {
		t.Errorf("a gone pid = %v", got)
	}
}

func TestProcessKind(t *testing.T) {
	chromium := "/usr/lib/chromium/chromium"
	cases := []struct {
		exe  string
		argv []string
		want string
	}{
		{chromium, []string{chromium, "--remote-debugging-port=0", "--headless=new", "about:blank"}, "browser"},
		// Chromium rewrites its children's command line as one string
		{chromium, []string{chromium + " --type=renderer --crashpad-handler-pid=0 --enable-crash-reporter=,built on Debian"}, "renderer"},
		{chromium, []string{chromium + " --type=zygote --no-zygote-sandbox"}, "zygote"},
		{chromium, []string{chromium + " --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US"}, "utility:NetworkService"},
		{chromium, []string{chromium, "--type=gpu-process"}, "gpu-process"},
		{"/usr/lib/chromium/chrome_crashpad_handler", []string{"/usr/lib/chromium/chrome_crashpad_handler", "--monitor-self"}, "crashpad"},
		{"", []string{"/usr/lib/chromium/chrome_crashpad_handler --no-periodic-tasks"}, "crashpad"},
	}
	for _, c := range cases {
		if got := processKind(c.exe, c.argv); got != c.want {
			t.Errorf("processKind(%q, %q) = %q, want %q", c.exe, c.argv, got, c.want)
		}
	}
}

func TestRollupAdd(t *testing.T) {
	r := rollup{RSSkB: 10, PSSkB: 5, PSSAnonkB: 3, PSSFilekB: 2}
	r.add(rollup{RSSkB: 1, PSSkB: 1, PSSShmemkB: 4, PrivCleankB: 1, PrivDirtykB: 2})
	want := rollup{RSSkB: 11, PSSkB: 6, PSSAnonkB: 3, PSSFilekB: 2, PSSShmemkB: 4, PrivCleankB: 1, PrivDirtykB: 2}
	if r != want {
		t.Errorf("= %+v", r)
	}
}

func TestSpreadOf(t *testing.T) {
	s := spreadOf([]float64{0.62, 0.58, 0.66})
	if s.Median != 0.62 || s.Min != 0.58 || s.Max != 0.66 || len(s.Values) != 3 {
		t.Errorf("= %+v", s)
	}
	if s := spreadOf(nil); s.Median != 0 || s.Values != nil {
		t.Errorf("empty = %+v", s)
	}
}

func snap(pssMB int64) memSnapshot {
	return memSnapshot{Processes: 1, Total: rollup{PSSkB: pssMB * 1024, RSSkB: 2 * pssMB * 1024, PSSAnonkB: pssMB * 512}}
}

func TestWorldsSummarize(t *testing.T) {
	side := func(name string, one, all int64) *worldsSideRun {
		return &worldsSideRun{Side: name, One: snap(one), All: snap(all), MarginalPSSkB: (all - one) * 1024 / 4}
	}
	res := &worldsResult{Agents: 5, Sides: []string{worldsSideWorlds, worldsSideBrowsers, worldsSideContexts}}
	for _, v := range []struct{ w, b, c int64 }{{700, 1000, 690}, {720, 1200, 700}, {660, 1000, 650}} {
		res.RoundResults = append(res.RoundResults, worldsRound{Sides: map[string]*worldsSideRun{
			worldsSideWorlds:   side(worldsSideWorlds, 380, v.w),
			worldsSideBrowsers: side(worldsSideBrowsers, 380, v.b),
			worldsSideContexts: side(worldsSideContexts, 380, v.c),
		}})
	}
	ms := time.Microsecond
	rt := &rtSamples{
		world: []time.Duration{500 * ms, 520 * ms, 540 * ms}, whole: []time.Duration{500 * ms, 500 * ms, 500 * ms},
		worldBatch: []time.Duration{520 * ms}, wholeBatch: []time.Duration{500 * ms},
	}
	res.summarize(rt, config{WorldsRTCalls: 3, RTBatch: 50})
	if m := res.Median[worldsSideWorlds]; m.PSSAll != 700 || m.PSSOne != 380 || m.Marginal != 80 || m.RSSAll != 1400 {
		t.Errorf("worlds medians = %+v", m)
	}
	if res.Median[worldsSideBrowsers].PSSAll != 1000 {
		t.Errorf("browsers median = %+v", res.Median[worldsSideBrowsers])
	}
	// ratios are taken within each round, then their median
	if got := res.Ratio.Values; len(got) != 3 || got[0] != 0.7 || got[1] != 0.6 || got[2] != 0.66 {
		t.Errorf("ratios = %v", got)
	}
	if res.Ratio.Median != 0.66 || res.Ratio.Min != 0.6 || res.Ratio.Max != 0.7 {
		t.Errorf("ratio spread = %+v", res.Ratio)
	}
	if res.WorldsOverCtx.Median <= 1 || res.ContextsRatio.Median >= res.Ratio.Median {
		t.Errorf("contexts: %+v, %+v", res.WorldsOverCtx, res.ContextsRatio)
	}
	if res.RoundTrip == nil || res.RoundTrip.RatioP50 != 1.04 || res.RoundTrip.BatchRatioP50 != 1.04 {
		t.Errorf("round trip = %+v", res.RoundTrip)
	}
	rows := worldsRows(res)
	if r := findRow(rows, "worlds: PSS, 5 agents"); r == nil || r.Met != metNo || !strings.Contains(r.Diff, "×0.660") {
		t.Errorf("PSS row = %+v", r)
	}
	if r := findRow(rows, "worlds: round trip p50 (µs)"); r == nil || r.Met != metYes {
		t.Errorf("round trip row = %+v", r)
	}
	out := formatWorldsRounds(res)
	if !strings.Contains(out, "700 / 380") && !strings.Contains(out, "380 / 700") {
		t.Errorf("rounds table:\n%s", out)
	}
}

func TestWorldsIsOptIn(t *testing.T) {
	c, err := parseConfig([]string{"--launch"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.wants("worlds") || !c.wants("roundtrip") || !c.wantsPair() {
		t.Errorf("default: worlds %v, roundtrip %v, pair %v", c.wants("worlds"), c.wants("roundtrip"), c.wantsPair())
	}
	if c.WorldsRounds != 3 || c.WorldsAgents != 5 || c.WorldsPages != 2 || c.WorldsRTCalls != 2000 || !c.WorldsContexts {
		t.Errorf("worlds defaults: %+v", c)
	}
	c, err = parseConfig([]string{"--launch", "--only", "worlds", "--quick"}, io.Discard)
	if err != nil || !c.wants("worlds") || c.wantsPair() || c.WorldsRounds != 1 {
		t.Errorf("--only worlds: %+v, %v", c, err)
	}
	for _, bad := range [][]string{
		{"--launch", "--only", "worlds", "--worlds-agents", "1"},
		{"--launch", "--only", "worlds", "--worlds-pages", "0"},
	} {
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("parseConfig(%q) accepted", bad)
		}
	}
}

func TestAgentPage(t *testing.T) {
	if !strings.Contains(agentPageHTML, `<script src="/app.js">`) || strings.Count(agentPageHTML, "<p ") != 200 {
		t.Error("page HTML lost its script or paragraphs")
	}
	if !strings.Contains(agentPageJS, "__cdpbenchReady") || !strings.Contains(agentReadyJS, "__cdpbenchReady") {
		t.Error("the ready flag is not set by the page or not waited for")
	}
	if pageBytes() < 50_000 {
		t.Errorf("page of %d bytes", pageBytes())
	}
}

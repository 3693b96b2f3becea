package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRotateTurnsTheOrderEachRound(t *testing.T) {
	got := rotate(4, sideDirect, sideProxy, sideBaseline)
	want := []side{
		sideDirect, sideProxy, sideBaseline,
		sideProxy, sideBaseline, sideDirect,
		sideBaseline, sideDirect, sideProxy,
		sideDirect, sideProxy, sideBaseline,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rotate(4, …) = %v\nwant %v", got, want)
	}
	if rotate(0, sideDirect, sideProxy) != nil || rotate(3) != nil {
		t.Error("no rounds or no sides: empty schedule")
	}
}

func TestLaunchOrder(t *testing.T) {
	if got := launchOrder(3, false); !reflect.DeepEqual(got, alternate(3)) {
		t.Errorf("without a baseline: %v, want direct and cdpvisor alternating", got)
	}
	got := launchOrder(3, true)
	counts := map[side]int{}
	for i := 0; i < len(got); i += 3 {
		round := map[side]bool{got[i]: true, got[i+1]: true, got[i+2]: true}
		if len(round) != 3 {
			t.Errorf("round %d is not one of each side: %v", i/3, got[i:i+3])
		}
		counts[got[i]]++
	}
	if len(got) != 9 || counts[sideDirect] != 1 || counts[sideProxy] != 1 || counts[sideBaseline] != 1 {
		t.Errorf("with a baseline: %v (each side should open one round of three)", got)
	}
}

func TestCompareBaseline(t *testing.T) {
	msd := func(v ...float64) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x * float64(time.Millisecond))
		}
		return out
	}
	r := compareBaseline(msd(900, 800, 1000), msd(700, 760, 2000))
	if r.Median != 760 || r.CdpvisorMedian != 900 || r.Diff != 140 || r.Met || r.Target != 50 {
		t.Errorf("140 ms slower: %+v", r)
	}
	if !reflect.DeepEqual(r.Ms, []float64{700, 760, 2000}) {
		t.Errorf("samples in run order: %v", r.Ms)
	}
	if r := compareBaseline(msd(800, 840), msd(800, 780)); r.Diff != 30 || !r.Met {
		t.Errorf("30 ms slower: %+v", r)
	}
	if r := compareBaseline(msd(700), msd(800)); r.Diff != -100 || !r.Met {
		t.Errorf("faster: %+v", r)
	}
	if compareBaseline(msd(700), nil) != nil {
		t.Error("no baseline samples: no comparison")
	}
}

func TestBuildRowsBaseline(t *testing.T) {
	r := &report{
		ColdStart: &coldResult{BareMedian: 300, ProxyMedian: 360, Diff: 60,
			Baseline: &baselineResult{Median: 340, CdpvisorMedian: 360, Diff: 20, Target: 50, Met: true}},
		Recovery: &recoveryResult{BareMedian: 300, RecoveryMedian: 390, Diff: 90,
			Baseline: &baselineResult{Median: 320, CdpvisorMedian: 390, Diff: 70, Target: 50, Met: false}},
	}
	rows := buildRows(r)
	cs := findRow(rows, "cold start vs baseline, median (ms)")
	if cs == nil || cs.Met != metYes || cs.Direct != "340.0 (baseline)" || cs.Proxy != "360.0" || cs.Diff != "+20.0 ms" || cs.Target != "≤ +50 ms" {
		t.Errorf("cold start row: %+v", cs)
	}
	rc := findRow(rows, "recovery vs baseline, median (ms)")
	if rc == nil || rc.Met != metNo || rc.Diff != "+70.0 ms" {
		t.Errorf("recovery row: %+v", rc)
	}
	if findRow(buildRows(&report{ColdStart: &coldResult{}}), "cold start vs baseline") != nil {
		t.Error("a baseline row without --baseline-bin")
	}
	if md := formatMarkdown(rows); !strings.Contains(md, "| cold start vs baseline, median (ms) | 340.0 (baseline) |") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestParseConfigBaselineAndControl(t *testing.T) {
	c, err := parseConfig([]string{"--launch", "--baseline-bin", "/tmp/x", "--control=false"}, io.Discard)
	if err != nil || c.BaselineBin != "/tmp/x" || c.Control {
		t.Errorf("= %+v, %v", c, err)
	}
	if c, err := parseConfig([]string{"--launch"}, io.Discard); err != nil || !c.Control || c.BaselineBin != "" {
		t.Errorf("defaults: control %v, baseline %q, %v", c.Control, c.BaselineBin, err)
	}
	if _, err := parseConfig([]string{"--direct", "http://127.0.0.1:1", "--proxy", "http://127.0.0.1:2", "--baseline-bin", "/tmp/x"}, io.Discard); err == nil {
		t.Error("--baseline-bin without --launch accepted")
	}
}

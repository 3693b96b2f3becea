package main

import (
	"reflect"
	"testing"
)

func TestInterleaveAlternatesAndBalances(t *testing.T) {
	got := interleave(120, 50, 2)
	want := []step{{sideDirect, 50}, {sideProxy, 50}, {sideDirect, 50}, {sideProxy, 50}, {sideDirect, 20}, {sideProxy, 20}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("interleave(120, 50, 2) = %v, want %v", got, want)
	}
}

func TestInterleaveThreeSides(t *testing.T) {
	steps := interleave(100, 30, 3)
	totals := map[side]int{}
	for i, s := range steps {
		if s.Side != side(i%3) {
			t.Fatalf("step %d is %v, want %v (A B C A B C …)", i, s.Side, side(i%3))
		}
		totals[s.Side] += s.N
	}
	for _, s := range []side{sideDirect, sideProxy, sideControl} {
		if totals[s] != 100 {
			t.Errorf("%v got %d operations, want 100", s, totals[s])
		}
	}
}

func TestInterleaveDegenerate(t *testing.T) {
	if interleave(0, 50, 2) != nil || interleave(10, 0, 2) != nil || interleave(10, 5, 0) != nil {
		t.Error("degenerate schedules should be empty")
	}
	if got := interleave(3, 50, 2); !reflect.DeepEqual(got, []step{{sideDirect, 3}, {sideProxy, 3}}) {
		t.Errorf("batch larger than total: %v", got)
	}
}

func TestAlternate(t *testing.T) {
	got := alternate(3)
	want := []side{sideDirect, sideProxy, sideDirect, sideProxy, sideDirect, sideProxy}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("alternate(3) = %v", got)
	}
	if alternate(0) != nil {
		t.Error("alternate(0) not empty")
	}
}

func TestSideNames(t *testing.T) {
	if sideDirect.String() != "direct" || sideProxy.String() != "cdpvisor" || sideControl.String() == "" {
		t.Error("side names")
	}
}

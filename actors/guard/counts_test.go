package guard

import "testing"

// A host's counts are news at 1, 10, 100…: the journal hears of a host
// at once and then ever less often.
func TestCountsNews(t *testing.T) {
	var told []HostCount
	c := counts{m: map[string]*HostCount{}, onHost: func(_ string, n HostCount) { told = append(told, n) }}
	for range 120 {
		c.reached("a.test:443")
	}
	c.denied("a.test:443")
	want := []HostCount{{Reached: 1}, {Reached: 10}, {Reached: 100}, {Reached: 120, Denied: 1}}
	if len(told) != len(want) {
		t.Fatalf("told %v, want %v", told, want)
	}
	for i := range want {
		if told[i] != want[i] {
			t.Errorf("told %v, want %v", told, want)
		}
	}
}

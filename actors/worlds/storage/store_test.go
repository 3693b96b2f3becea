package storage

import (
	"testing"
	"time"
)

// A read that took long puts the world's next tick read off as long; a
// quick one hardly at all; ending no read puts nothing off.
func TestSlowReadPutsOffTheNextTickRead(t *testing.T) {
	var s Store
	t0 := time.Unix(1000, 0)
	if !s.tickReadDue(t0) {
		t.Fatal("a world never read is not due")
	}
	s.readBegins(t0)
	s.readEnds(t0.Add(3 * time.Second)) // expired at readWait
	for _, c := range []struct {
		at  time.Duration
		due bool
	}{{3 * time.Second, false}, {5900 * time.Millisecond, false}, {6 * time.Second, true}} {
		if got := s.tickReadDue(t0.Add(c.at)); got != c.due {
			t.Errorf("after a 3 s read ended at 3 s: due at %s = %v, want %v", c.at, got, c.due)
		}
	}
	s.readBegins(t0.Add(10 * time.Second))
	s.readEnds(t0.Add(10*time.Second + 20*time.Millisecond))
	if !s.tickReadDue(t0.Add(10*time.Second + 40*time.Millisecond)) {
		t.Error("a 20 ms read put the next one off for more than 20 ms")
	}
	s.readEnds(t0.Add(time.Hour)) // none under way: nothing to measure
	if !s.tickReadDue(t0.Add(11 * time.Second)) {
		t.Error("ending no read put the next one off")
	}
}

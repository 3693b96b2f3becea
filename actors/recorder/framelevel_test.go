package recorder

import "testing"

func TestNextLevelKeepsABusyPageUnderTheBudget(t *testing.T) {
	// Sizes at the best level measured on the bench's pages: the busy
	// 1280×720 canvas 80–90 kB, the canvas of noise 176 kB.
	for _, c := range []struct {
		name        string
		level, size int
		want        int
	}{
		{"a frame that fits stays", 0, 50_000, 0},
		{"the busy page jumps to where it fits", 0, 90_000, 3},
		{"the noise jumps further", 0, 176_000, 5},
		{"still too large: one more", 3, 60_000, 4},
		{"the last level is the last", len(frameLevels) - 1, 200_000, len(frameLevels) - 1},
	} {
		got, small := nextLevel(c.level, 0, c.size)
		if got != c.want || small != 0 {
			t.Errorf("%s: level %d after %d bytes: %d (small %d), want %d", c.name, c.level, c.size, got, small, c.want)
		}
		if got != c.level && float64(c.size)*frameLevels[got].size/frameLevels[c.level].size > float64(frameFits) && got != len(frameLevels)-1 {
			t.Errorf("%s: level %d is not expected to fit", c.name, got)
		}
	}
}

func TestNextLevelGoesBackUpOnlyAfterManySmallFrames(t *testing.T) {
	level, small := 3, 0
	for i := 1; i < levelUpAfter; i++ {
		if level, small = nextLevel(level, small, 10_000); level != 3 || small != i {
			t.Fatalf("after %d small frames: level %d, small %d", i, level, small)
		}
	}
	if level, small = nextLevel(level, small, 10_000); level != 2 || small != 0 {
		t.Fatalf("after %d small frames: level %d, small %d, want 2, 0", levelUpAfter, level, small)
	}
	// A frame that would not fit a level up breaks the run.
	level, small = nextLevel(3, 5, 40_000)
	if level != 3 || small != 0 {
		t.Fatalf("a 40 kB frame at 960 wide: level %d, small %d, want 3, 0", level, small)
	}
}

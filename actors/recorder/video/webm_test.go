package video

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestWebMShowsEachFrameForItsTime(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	// Variable frame rate: a second apart, then busy (0.1 s apart).
	file := writeWebM(t, framesOf(t,
		shot{640, 480, red, 0},
		shot{640, 480, green, 1},
		shot{640, 480, blue, 2.5},
		shot{640, 480, yellow, 2.6},
		shot{640, 480, white, 2.7},
	), WithTempDir(tmp))
	checkEmpty(t, tmp)

	p := probe(t, file)
	if p.codec != "vp8" && p.codec != "vp9" {
		t.Errorf("codec %q, want vp8 or vp9", p.codec)
	}
	if p.width != 640 || p.height != 480 {
		t.Errorf("size %dx%d, want 640x480", p.width, p.height)
	}
	// The frames span 2.7 s, and the last is shown for 1 s.
	if math.Abs(p.duration-3.7) > 0.15 {
		t.Errorf("duration %.3f s, want about 3.7", p.duration)
	}
	for _, c := range []struct {
		at   float64
		want shot
	}{
		{0.5, shot{c: red}},
		{1.5, shot{c: green}},
		{2.4, shot{c: green}},
		{2.55, shot{c: blue}},
		{2.65, shot{c: yellow}},
		{3.5, shot{c: white}},
	} {
		checkCenter(t, file, c.at, c.want.c)
	}
}

func TestWebMFramesOfMixedSizes(t *testing.T) {
	needFFmpeg(t)
	file := writeWebM(t, framesOf(t,
		shot{333, 221, red, 0},     // odd: the video is 334x222
		shot{1280, 720, green, 1},  // larger: scaled down to fit
		shot{100, 50, blue, 2},     // smaller: padded, not scaled up
		shot{640, 100, white, 2.5}, // wider, flatter
	))
	p := probe(t, file)
	if p.width != 334 || p.height != 222 {
		t.Errorf("size %dx%d, want 334x222 (the first frame's, made even)", p.width, p.height)
	}
	if math.Abs(p.duration-3.5) > 0.15 {
		t.Errorf("duration %.3f s, want about 3.5", p.duration)
	}
	checkCenter(t, file, 0.5, red)
	checkCenter(t, file, 1.5, green)
	small := shownAt(t, file, 2.2)
	checkColor(t, small, 167, 111, blue, "the small frame's center")
	checkColor(t, small, 10, 10, black, "around the small frame (padding)")
	wide := shownAt(t, file, 3)
	checkColor(t, wide, 167, 111, white, "the wide frame's center")
	checkColor(t, wide, 167, 10, black, "above the wide frame (padding)")
}

func TestWebMOutOfOrderAndSameTimeFrames(t *testing.T) {
	needFFmpeg(t)
	file := writeWebM(t, framesOf(t,
		shot{64, 48, red, 0},
		shot{64, 48, green, 1},
		shot{64, 48, yellow, 1}, // same time: replaces green
		shot{64, 48, blue, 0.5}, // earlier than the one before: taken at 1 s
		shot{64, 48, white, 2},
	))
	if p := probe(t, file); math.Abs(p.duration-3) > 0.15 {
		t.Errorf("duration %.3f s, want about 3", p.duration)
	}
	checkCenter(t, file, 0.5, red)
	checkCenter(t, file, 1.5, blue)
	checkCenter(t, file, 2.5, white)
}

// The plain list is what an ffmpeg before 5.0 reads: it must make the same
// video, at 1/25 s.
func TestPlainListForOlderFFmpeg(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	s, err := newSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for f := range framesOf(t, shot{64, 48, red, 0}, shot{64, 48, green, 1}, shot{64, 48, blue, 1.3}) {
		if err := s.add(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.finish(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "video.webm")
	o := defaults()
	if stderr, err := encode(context.Background(), o, "ffmpeg", dir, s.plain.Name(), file, s.width, s.height); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, stderr)
	}
	if p := probe(t, file); math.Abs(p.duration-2.3) > 0.15 {
		t.Errorf("duration %.3f s, want about 2.3", p.duration)
	}
	checkCenter(t, file, 0.5, red)
	checkCenter(t, file, 1.15, green)
	checkCenter(t, file, 2, blue)
}

func TestWebMFramesTempDirIsPrivate(t *testing.T) {
	needFFmpeg(t)
	tmp := t.TempDir()
	var mode os.FileMode
	seq := func(yield func(Frame, error) bool) {
		for f := range framesOf(t, shot{64, 48, red, 0}, shot{64, 48, green, 1}) {
			if !yield(f, nil) {
				return
			}
			if entries, _ := os.ReadDir(tmp); len(entries) == 1 {
				if info, err := entries[0].Info(); err == nil {
					mode = info.Mode().Perm()
				}
			}
		}
	}
	writeWebM(t, seq, WithTempDir(tmp), WithBitrate(200_000))
	if mode != 0o700 {
		t.Errorf("frames directory mode %v, want 0700", mode)
	}
	checkEmpty(t, tmp)
}

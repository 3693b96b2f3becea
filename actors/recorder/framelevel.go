package recorder

import "time"

// frameLevel is how a page's screencast frames are made: JPEG quality,
// the widest a frame may be, and about how large a frame is at it against
// the best level.
type frameLevel struct {
	quality, maxWidth int
	size              float64
}

// frameLevels go from the best to the smallest. A page starts at the
// best; one whose frames outgrow what the budget allows at a frame every
// maxAckGap goes down to the level its frames should fit at, so that a
// page changing all the time keeps to the budget (a 1280×720 canvas
// redrawn whole: 84 kB at the best, a canvas of noise 176 kB). Quality
// goes first, width only after. The sizes are a guess to jump by; a frame
// still too large steps again.
var frameLevels = []frameLevel{
	{60, 1280, 1}, {50, 1280, 0.88}, {40, 1280, 0.78},
	{40, 960, 0.5}, {35, 800, 0.36}, {30, 640, 0.24}, {25, 480, 0.14},
}

const (
	// frameFits is the largest frame the budget allows at one frame
	// every maxAckGap.
	frameFits = int(frameBudget * maxAckGap / time.Second)
	// levelUpAfter frames in a row that should be well under frameFits a
	// level up (levelUpRoom of it) take a page back up.
	levelUpAfter = 20
	levelUpRoom  = 0.7
	// levelSettle frames after a change may still be of the old level:
	// the browser keeps two in flight, and encodes a frame at the quality
	// of when it was taken.
	levelSettle = 3
)

// screencastParams are Page.startScreencast's parameters at a level.
func screencastParams(l frameLevel) map[string]any {
	return map[string]any{"format": "jpeg", "quality": l.quality, "maxWidth": l.maxWidth, "maxHeight": frameMax, "everyNthFrame": 1}
}

// adaptLevel moves a page's level after a frame of size bytes.
func (r *run) adaptLevel(in *inst, p *page, size int) {
	if p.settling > 0 {
		p.settling--
		return
	}
	var level int
	level, p.small = nextLevel(p.level, p.small, size)
	r.setLevel(in, p, level, size)
}

// nextLevel is the level a page at level goes to after a frame of size
// bytes, and the count of small frames in a row since.
func nextLevel(level, small, size int) (int, int) {
	last := len(frameLevels) - 1
	at := func(l int) float64 { return float64(size) * frameLevels[l].size / frameLevels[level].size }
	switch {
	case size > frameFits && level < last:
		l := level + 1
		for l < last && at(l) > float64(frameFits) {
			l++
		}
		return l, 0
	case size <= frameFits && level > 0 && at(level-1) < levelUpRoom*float64(frameFits):
		if small+1 >= levelUpAfter {
			return level - 1, 0
		}
		return level, small + 1
	}
	return level, 0
}

// setLevel starts the page's screencast again at another level. The
// browser opens a new screencast session: acknowledgements of the old
// one's frames are ignored from then on, so none is held any more.
// size is the frame's that moved it, for the log.
func (r *run) setLevel(in *inst, p *page, level, size int) {
	if level == p.level || p.session == "" {
		return
	}
	if _, ok := in.session.SendTo(p.session, "Page.startScreencast", screencastParams(frameLevels[level])); !ok {
		return
	}
	r.a.spec.Log.Debug().Str("world", p.world).Str("target", p.id).Int("quality", frameLevels[level].quality).Int("max_width", frameLevels[level].maxWidth).Int("from", p.level).Int("bytes", size).Msg("recorder: a page's frames at another level")
	p.level, p.small, p.settling, p.acks = level, 0, levelSettle, nil
}

package install

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress reports a download on w (stderr): a bar redrawn in place on a
// terminal, or a plain line every tenth of the way (every 10 s when the size
// is unknown) for logs and pipes, which a bar would fill with \r noise.
type progress struct {
	w     io.Writer
	tty   bool
	label string
	now   func() time.Time

	mu       sync.Mutex
	total    int64 // -1: unknown
	done     int64
	began    time.Time
	lastDraw time.Time
	lastStep int64 // tenths reported so far (plain), or 10 s periods when the size is unknown
}

const (
	barWidth    = 30
	redrawEvery = 100 * time.Millisecond
	plainEvery  = 10 * time.Second
)

func newProgress(w io.Writer, tty bool, label string) *progress {
	if w == nil {
		w = io.Discard
	}
	return &progress{w: w, tty: tty, label: label, now: time.Now}
}

func (p *progress) start(total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done, p.began, p.lastStep = total, 0, p.now(), 0
	if !p.tty {
		size := "size unknown"
		if total >= 0 {
			size = sizeText(total)
		}
		fmt.Fprintf(p.w, "cdpvisor install: downloading %s (%s)\n", p.label, size)
	}
}

func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	now := p.now()
	if p.tty {
		if now.Sub(p.lastDraw) >= redrawEvery {
			p.lastDraw = now
			p.drawBar(now)
		}
		return
	}
	if p.total > 0 {
		if step := p.done * 10 / p.total; step > p.lastStep && step < 10 {
			p.lastStep = step
			fmt.Fprintf(p.w, "cdpvisor install: %s %d%% (%s of %s)\n", p.label, step*10, sizeText(p.done), sizeText(p.total))
		}
		return
	}
	if period := int64(now.Sub(p.began) / plainEvery); period > p.lastStep {
		p.lastStep = period
		fmt.Fprintf(p.w, "cdpvisor install: %s %s so far\n", p.label, sizeText(p.done))
	}
}

// finish draws the final state: the full bar and a newline on a terminal,
// one closing line otherwise.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.tty {
		p.drawBar(now)
		fmt.Fprintln(p.w)
		return
	}
	fmt.Fprintf(p.w, "cdpvisor install: %s: %s in %s\n", p.label, sizeText(p.done), now.Sub(p.began).Round(100*time.Millisecond))
}

// drawBar rewrites the terminal line: label [=====>    ] 45% 70.2/155.9 MB 12.3 MB/s
func (p *progress) drawBar(now time.Time) {
	rate := ""
	if secs := now.Sub(p.began).Seconds(); secs > 0.2 {
		rate = "  " + sizeText(int64(float64(p.done)/secs)) + "/s"
	}
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r%s  %s%s\x1b[K", p.label, sizeText(p.done), rate)
		return
	}
	filled := int(p.done * barWidth / p.total)
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	fmt.Fprintf(p.w, "\r%s [%s] %3d%%  %s/%s%s\x1b[K", p.label, bar, p.done*100/p.total, sizeText(p.done), sizeText(p.total), rate)
}

// sizeText is a byte count for people: 812 B, 70.2 MB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

package install

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock steps by tick on every reading.
func fakeClock(tick time.Duration) func() time.Time {
	t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(tick)
		return t
	}
}

func TestProgressPlainLines(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, "chrome 131.0.6778.85")
	p.now = fakeClock(10 * time.Millisecond)
	p.start(100 << 20)
	for range 100 {
		p.add(1 << 20)
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 11 || strings.Contains(out.String(), "\r") {
		t.Fatalf("want a start line, one per tenth up to 90%%, a closing line; got %d lines:\n%s", len(lines), out.String())
	}
	for i, want := range map[int]string{
		0:  "cdpvisor install: downloading chrome 131.0.6778.85 (100.0 MB)",
		1:  "cdpvisor install: chrome 131.0.6778.85 10% (10.0 MB of 100.0 MB)",
		9:  "cdpvisor install: chrome 131.0.6778.85 90% (90.0 MB of 100.0 MB)",
		10: "cdpvisor install: chrome 131.0.6778.85: 100.0 MB in 1s",
	} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q", i, lines[i], want)
		}
	}
}

func TestProgressPlainUnknownSize(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, "chromium 1400123")
	p.now = fakeClock(time.Second)
	p.start(-1)
	for range 25 {
		p.add(1 << 20)
	}
	p.finish()
	got := out.String()
	for _, want := range []string{"(size unknown)", "chromium 1400123 10.0 MB so far", "chromium 1400123 20.0 MB so far", "chromium 1400123: 25.0 MB in 26s"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestProgressBarOnTerminal(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, "chrome 131.0.6778.85")
	p.now = fakeClock(50 * time.Millisecond)
	p.start(1000)
	for range 10 {
		p.add(100)
	}
	p.finish()
	got := out.String()
	if strings.Contains(got, "downloading") || !strings.HasSuffix(got, "\n") {
		t.Fatalf("a terminal gets only the bar, ended by a newline: %q", got)
	}
	frames := strings.Split(strings.TrimSuffix(got, "\n"), "\r")[1:]
	if len(frames) < 3 || len(frames) > 7 {
		t.Fatalf("%d redraws for 10 updates 50 ms apart, want about one per 100 ms: %q", len(frames), got)
	}
	last := frames[len(frames)-1]
	if !strings.Contains(last, "["+strings.Repeat("=", barWidth)+"] 100%  1000 B/1000 B") || !strings.HasSuffix(last, "B/s\x1b[K") {
		t.Fatalf("last frame %q", last)
	}
	if !strings.Contains(frames[0], "=>") || !strings.Contains(frames[0], "%") {
		t.Fatalf("first frame %q", frames[0])
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 kB", 155 << 20: "155.0 MB", 3 << 30: "3.0 GB"} {
		if got := sizeText(n); got != want {
			t.Errorf("sizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

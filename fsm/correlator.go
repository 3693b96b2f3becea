package fsm

import (
	"strings"
	"time"
)

// Weak signals are target-level events that often precede a browser's end
// but do not prove it: alone, they change nothing.
var WeakSignals = []string{"Inspector.detached", "Target.detachedFromTarget"}

// IsWeakSignal reports whether a browser event's method is a weak signal.
func IsWeakSignal(method []byte) bool {
	for _, w := range WeakSignals {
		if string(method) == w {
			return true
		}
	}
	return false
}

// WeakWindow is how recent a weak signal must be, before a strong one, for
// the browser to count as disconnected on purpose (closed or crashed)
// rather than its connection merely failing.
const WeakWindow = 2 * time.Second

const ringSize = 10

// WeakEvent is one weak signal as it was seen.
type WeakEvent struct {
	At     time.Time
	Method string
	Raw    []byte // the whole event, for the logs
}

// Correlator keeps the last weak signals of a connection and judges a
// strong signal against them. It belongs to one RelayActor.
type Correlator struct {
	ring  [ringSize]WeakEvent
	next  int
	count int
	now   func() time.Time
}

// NewCorrelator makes an empty correlator; now is time.Now unless a test
// supplies a clock.
func NewCorrelator(now func() time.Time) *Correlator {
	if now == nil {
		now = time.Now
	}
	return &Correlator{now: now}
}

// Weak records a weak signal; raw is copied.
func (c *Correlator) Weak(method []byte, raw []byte) {
	c.ring[c.next] = WeakEvent{At: c.now(), Method: string(method), Raw: append([]byte(nil), raw...)}
	c.next = (c.next + 1) % ringSize
	if c.count < ringSize {
		c.count++
	}
}

// Events returns the recorded weak signals, oldest first.
func (c *Correlator) Events() []WeakEvent {
	out := make([]WeakEvent, 0, c.count)
	for i := 0; i < c.count; i++ {
		out = append(out, c.ring[(c.next-c.count+i+ringSize)%ringSize])
	}
	return out
}

// Strong judges a strong signal (the browser connection failed) now:
// disconnectedLikely is true when a weak signal came within WeakWindow
// before it. signals lists what was seen, for the logs.
func (c *Correlator) Strong(name string) (disconnectedLikely bool, signals string) {
	at := c.now()
	var seen []string
	for _, ev := range c.Events() {
		if d := at.Sub(ev.At); d >= 0 && d <= WeakWindow {
			disconnectedLikely = true
			seen = append(seen, ev.Method)
		}
	}
	return disconnectedLikely, strings.Join(append(seen, name), ",")
}

// Reset forgets the weak signals (a new browser connection starts clean).
func (c *Correlator) Reset() { c.count, c.next = 0, 0 }

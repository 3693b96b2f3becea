package browser

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// The launch backoff. After a failed launch, demands (EnsureRunning, and
// Replace when it would launch) that come within the backoff window are
// answered at once with the last launch error instead of launching again:
// a client that retries in a loop must not relaunch a browser that never
// becomes ready in a loop too. The window starts at LaunchBackoffMin and
// doubles with each failed launch in a row, up to LaunchBackoffMax; a
// launch that works ends it. Launch and Restart (a person or an agent
// asking) are never held back.
const (
	LaunchBackoffMin = time.Second
	LaunchBackoffMax = 30 * time.Second
)

// ErrLaunchBackoff is what a demand held back by the launch backoff gets
// (wrapped in a *BackoffError, which also unwraps to the launch's error).
var ErrLaunchBackoff = errors.New("launch backoff")

// BackoffError answers a demand that came within the backoff window after
// a failed launch: it carries that launch's error (errors.As finds a
// *chrome.LaunchError in it) and when the next launch may be tried.
type BackoffError struct {
	Err      error     // why the last launch failed
	FailedAt time.Time // when it failed
	Failures int       // failed launches in a row
	RetryAt  time.Time // the next demand from then on launches again
}

func (e *BackoffError) Error() string {
	launches := "launches"
	if e.Failures == 1 {
		launches = "launch"
	}
	return fmt.Sprintf("not launching again for %s (backoff after %d failed %s in a row; "+
		"an explicit launch or restart tries at once); the last launch, %s ago, failed: %v",
		e.RetryIn().Round(10*time.Millisecond), e.Failures, launches, time.Since(e.FailedAt).Round(10*time.Millisecond), e.Err)
}

// RetryIn is how long until the next demand may launch.
func (e *BackoffError) RetryIn() time.Duration { return max(time.Until(e.RetryAt), 0) }

// Unwrap gives both the sentinel and the launch's own error.
func (e *BackoffError) Unwrap() []error { return []error{ErrLaunchBackoff, e.Err} }

// launchBackoff is the BrowserActor's record of failed launches in a row.
type launchBackoff struct {
	failures int
	err      error
	at       time.Time // when the last one failed
	next     time.Time // demands before this get err
	opts     launch.Options
}

// failed notes a failed launch with opts and returns the window it opens.
func (b *launchBackoff) failed(err error, opts launch.Options, now time.Time) time.Duration {
	b.failures++
	d := LaunchBackoffMax
	if shift := b.failures - 1; shift < 5 { // 1, 2, 4, 8, 16 s, then 30 s
		d = min(LaunchBackoffMin<<shift, LaunchBackoffMax)
	}
	b.err, b.at, b.next, b.opts = err, now, now.Add(d), opts
	return d
}

func (b *launchBackoff) reset() { *b = launchBackoff{} }

// holds says whether a demand launching with opts at now is held back: the
// window is open and the next launch would be the one that failed. A
// launch that failed with options no later launch uses (a Launch whose
// change was reverted) says nothing about the next one.
func (b *launchBackoff) holds(opts launch.Options, now time.Time) bool {
	return b.failures > 0 && now.Before(b.next) && reflect.DeepEqual(opts, b.opts)
}

func (b *launchBackoff) error() *BackoffError {
	return &BackoffError{Err: b.err, FailedAt: b.at, Failures: b.failures, RetryAt: b.next}
}

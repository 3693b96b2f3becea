package pwtrace

import (
	"runtime"
	"time"
)

// Option changes what NewWriter writes beside the events.
type Option func(*options)

type options struct {
	title    string
	browser  string
	platform string
	viewport *size
	settle   time.Duration
	start    time.Time
}

// DefaultSettle is how long after an action ends its "after" screenshot
// may be taken: a page shows a command's effect a frame or more after the
// command is answered.
const DefaultSettle = 500 * time.Millisecond

func defaults() options {
	platform := runtime.GOOS
	if platform == "windows" {
		platform = "win32" // Node's word, which Playwright writes
	}
	return options{browser: "chromium", platform: platform, settle: DefaultSettle}
}

// WithTitle names the trace (the world, say); the viewer shows it.
func WithTitle(title string) Option { return func(o *options) { o.title = title } }

// WithBrowserName names the browser's family as Playwright does
// ("chromium", "firefox"); chromium by default.
func WithBrowserName(name string) Option { return func(o *options) { o.browser = name } }

// WithPlatform names the browser's OS as Node does ("linux", "darwin",
// "win32"); this process's by default.
func WithPlatform(platform string) Option { return func(o *options) { o.platform = platform } }

// WithViewport gives the pages' viewport in CSS pixels, for the
// viewer's metadata.
func WithViewport(width, height int) Option {
	return func(o *options) { o.viewport = &size{Width: width, Height: height} }
}

// WithSettle sets how long after an action ends its "after" screenshot may
// be taken (DefaultSettle), never later than the next action on the page
// starts.
func WithSettle(d time.Duration) Option { return func(o *options) { o.settle = max(d, 0) } }

// WithStart sets when the recording starts (a trace --since): the
// viewer's timeline starts there. By default it starts at the earliest
// event.
func WithStart(t time.Time) Option { return func(o *options) { o.start = t } }

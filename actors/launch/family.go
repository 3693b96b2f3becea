package launch

import (
	"context"
	"regexp"
	"time"
)

// Family is what launching a Chromium-family browser and a Firefox differ
// in; spawning, the process group, stopping and cleaning up are shared.
type Family struct {
	LineName  string         // what the readiness line is called in messages
	ReadyLine *regexp.Regexp // the stderr line that announces the endpoint
	Args      func(opts Options, profile string) []string
	Env       []string // added to the browser's environment
	// Prepare readies the profile before the browser starts; temp says
	// cdpvisor created it (a user's profile is never written to).
	Prepare func(profile string, temp bool) error
	// Endpoint turns the announced URL into the websocket URL clients dial.
	Endpoint func(announced string) string
	// Confirm, when set, waits for more than the line before calling the
	// browser ready.
	Confirm  func(ctx context.Context, p *Process, timeout time.Duration, deadline <-chan time.Time) error
	Classify func(stderr []string) (Cause, bool) // causes only stderr states
}

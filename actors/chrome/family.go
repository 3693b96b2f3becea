package chrome

import (
	"context"
	"regexp"
	"time"
)

// family is what launching a Chromium-family browser and a Firefox differ
// in; spawning, the process group, stopping and cleaning up are shared.
type family struct {
	lineName  string         // what the readiness line is called in messages
	readyLine *regexp.Regexp // the stderr line that announces the endpoint
	args      func(opts LaunchOptions, profile string) []string
	env       []string // added to the browser's environment
	// prepare readies the profile before the browser starts; temp says
	// cdpvisor created it (a user's profile is never written to).
	prepare func(profile string, temp bool) error
	// endpoint turns the announced URL into the websocket URL clients dial.
	endpoint func(announced string) string
	// confirm, when set, waits for more than the line before calling the
	// browser ready.
	confirm  func(ctx context.Context, p *Process, timeout time.Duration, deadline <-chan time.Time) error
	classify func(stderr []string) (Cause, bool) // causes only stderr states
}

// chromiumFamily: Chromium creates its profile itself, announces the
// browser websocket itself, and is ready once /json/version answers too.
var chromiumFamily = &family{
	lineName:  "DevTools",
	readyLine: devToolsLine,
	args:      Args,
	endpoint:  func(announced string) string { return announced },
	confirm:   awaitJSONVersion,
	classify:  classifyStderr,
}

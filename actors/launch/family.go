package launch

import (
	"context"
	"regexp"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
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
	// Pipe, when set, says whether a launch with these options talks to its
	// browser over --remote-debugging-pipe (fds 3 and 4) instead of a port.
	Pipe func(opts Options) bool
	// Connect makes a piped browser ready: it takes the pipe over, waits for
	// the browser's first answers and fills in p's endpoint (WSURL,
	// HostPort, Reach). Its closer ends the connection once the browser is gone.
	Connect func(ctx context.Context, p *Process, pipe *transport.PipeConn, log zerolog.Logger) (closer func(), err error)
}

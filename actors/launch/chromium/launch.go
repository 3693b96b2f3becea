package chromium

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/multiplex"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Readiness: the DevTools line usually comes with /json/version answering
// within milliseconds, so it is polled quickly at first.
const (
	readyPoll      = 100 * time.Millisecond
	readyPollFirst = 10 * time.Millisecond // for the first readyFastFor after the DevTools line
	readyFastFor   = 200 * time.Millisecond
)

// devToolsLine is Chromium's readiness announcement; its group is the
// browser websocket URL.
var devToolsLine = regexp.MustCompile(`^DevTools listening on (ws://\S+)$`)

// Family: Chromium creates its profile itself, announces the
// browser websocket itself, and is ready once /json/version answers too.
var Family = &launch.Family{
	LineName:  "DevTools",
	ReadyLine: devToolsLine,
	Args:      Args,
	Endpoint:  func(announced string) string { return announced },
	Confirm:   awaitJSONVersion,
	Classify:  classifyStderr,
	Pipe:      Piped,
	Connect:   connectPipe,
}

// Start launches a Chromium-family browser and returns once it is ready:
// it answered on its debugging pipe, or, on a port, the DevTools line was
// seen and /json/version answers. On failure nothing is left behind: the
// process group is ended and the temporary directories are removed. onStderr, when not nil, sees every stderr line (for debug logs).
func Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	return launch.Start(ctx, opts, onStderr, Family)
}

// StartOrAttach attaches to a browser already running on the user's
// profile, and launches one otherwise (always for a temporary profile).
func StartOrAttach(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	if opts.UserDataDir != "" {
		dir, err := launch.ProfileDir(opts.UserDataDir)
		if err != nil {
			return nil, err
		}
		opts.UserDataDir = dir
		if p, err := launch.Attach(ctx, opts.Browser, opts.UserDataDir); err == nil {
			return p, nil
		}
	}
	return Start(ctx, opts, onStderr)
}

// awaitJSONVersion is Chromium's second readiness step: /json/version
// answers, which usually follows the line within milliseconds, so it polls
// quickly at first, then every readyPoll.
func awaitJSONVersion(ctx context.Context, p *launch.Process, timeout time.Duration, deadline <-chan time.Time) error {
	interval := readyPollFirst
	started := time.Now()
	tick := time.NewTimer(0)
	defer tick.Stop()
	for {
		if v, ok := launch.ReadProduct(ctx, p.HostPort); ok {
			if v != "" {
				p.Browser.Version = v // what runs, whatever the executable said before
			}
			return nil
		}
		if time.Since(started) > readyFastFor {
			interval = readyPoll
		}
		tick.Reset(interval)
		select {
		case <-tick.C:
		case <-p.Exited():
			return launch.ErrExitedEarly
		case <-deadline:
			return fmt.Errorf("%w after %s: /json/version on %s did not answer", launch.ErrTimedOut, timeout, p.HostPort)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// classifyStderr recognises the causes Chromium only states on stderr.
func classifyStderr(lines []string) (launch.Cause, bool) {
	for _, l := range lines {
		switch {
		case strings.Contains(l, "Running as root without --no-sandbox"):
			return launch.CauseRootNoSandbox, true
		case strings.Contains(l, "profile appears to be in use"), strings.Contains(l, "ProcessSingleton"):
			return launch.CauseProfileInUse, true
		case strings.Contains(l, "Missing X server or $DISPLAY"):
			return launch.CauseNoDisplay, true
		case strings.Contains(l, "Socket path too long"):
			return launch.CauseSocketPathLong, true
		}
	}
	return "", false
}

// connectPipe takes a piped browser's connection over: every client of the
// browser is a session on it (see actors/multiplex), and its protocol
// schema is its executable's.
func connectPipe(ctx context.Context, p *launch.Process, pipe *transport.PipeConn, log zerolog.Logger) (func(), error) {
	schema, resolve := executableSchema(p.Facts)
	conn, err := multiplex.Start(ctx, pipe, multiplex.Spec{Log: log, Schema: schema})
	if err != nil {
		return nil, err
	}
	resolve() // it answered: it has exec'd
	if v := conn.Version().Product; v != "" {
		p.Browser.Version = v
	}
	p.WSURL, p.HostPort, p.Reach = conn.BrowserURL(), multiplex.Host, conn
	return conn.Close, nil
}

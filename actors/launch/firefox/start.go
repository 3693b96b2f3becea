package firefox

import (
	"context"
	"regexp"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// bidiLine is Firefox's readiness announcement; its group is the URL of
// its WebDriver BiDi server.
var bidiLine = regexp.MustCompile(`^WebDriver BiDi listening on (ws://\S+)$`)

// Family: Firefox gets its preferences in the profile before it
// starts, announces the server rather than the BiDi socket (clients dial
// /session on it), and is ready with the line: it serves no /json/version.
var Family = &launch.Family{
	LineName:  "WebDriver BiDi",
	ReadyLine: bidiLine,
	Args:      args,
	// No crash reporter helper outliving the browser (Chromium's
	// --disable-breakpad).
	Env:      []string{"MOZ_CRASHREPORTER_DISABLE=1"},
	Prepare:  prepareProfile,
	Endpoint: func(announced string) string { return strings.TrimRight(announced, "/") + "/session" },
	Classify: classifyStderr,
}

// Start launches Firefox with its WebDriver BiDi server and returns
// once it announced it (Facts.WSURL is the BiDi socket, ws://…/session).
// Like Start, it leaves nothing behind on failure; a temporary profile gets
// cdpvisor's user.js, a profile the user supplied is checked and used as it is.
func Start(ctx context.Context, opts launch.Options, onStderr func(string)) (*launch.Process, error) {
	if err := CheckArgs(opts.ExtraArgs); err != nil {
		return nil, err
	}
	if opts.UserDataDir != "" {
		dir, err := launch.ProfileDir(opts.UserDataDir)
		if err != nil {
			return nil, err
		}
		opts.UserDataDir = dir
	}
	return launch.Start(ctx, opts, onStderr, Family)
}

// classifyStderr recognises the causes Firefox only states on stderr.
func classifyStderr(lines []string) (launch.Cause, bool) {
	for _, l := range lines {
		switch {
		case strings.Contains(l, "is already running, but is not responding"):
			return launch.CauseProfileInUse, true
		case strings.Contains(l, "no DISPLAY environment variable specified"):
			return launch.CauseNoDisplay, true
		}
	}
	return "", false
}

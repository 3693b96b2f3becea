package chrome

import (
	"context"
	"strings"
)

// firefoxFamily: Firefox gets its preferences in the profile before it
// starts, announces the server rather than the BiDi socket (clients dial
// /session on it), and is ready with the line: it serves no /json/version.
var firefoxFamily = &family{
	lineName:  "WebDriver BiDi",
	readyLine: bidiLine,
	args:      firefoxArgs,
	// No crash reporter helper outliving the browser (Chromium's
	// --disable-breakpad).
	env:      []string{"MOZ_CRASHREPORTER_DISABLE=1"},
	prepare:  prepareFirefoxProfile,
	endpoint: func(announced string) string { return strings.TrimRight(announced, "/") + "/session" },
	classify: classifyFirefoxStderr,
}

// StartFirefox launches Firefox with its WebDriver BiDi server and returns
// once it announced it (Facts.WSURL is the BiDi socket, ws://…/session).
// Like Start, it leaves nothing behind on failure; a temporary profile gets
// cdpvisor's user.js, a profile the user supplied is checked and used as it is.
func StartFirefox(ctx context.Context, opts LaunchOptions, onStderr func(string)) (*Process, error) {
	if err := CheckFirefoxArgs(opts.ExtraArgs); err != nil {
		return nil, err
	}
	if opts.UserDataDir != "" {
		dir, err := ProfileDir(opts.UserDataDir)
		if err != nil {
			return nil, err
		}
		opts.UserDataDir = dir
	}
	return start(ctx, opts, onStderr, firefoxFamily)
}

// classifyFirefoxStderr recognises the causes Firefox only states on stderr.
func classifyFirefoxStderr(lines []string) (Cause, bool) {
	for _, l := range lines {
		switch {
		case strings.Contains(l, "is already running, but is not responding"):
			return CauseProfileInUse, true
		case strings.Contains(l, "no DISPLAY environment variable specified"):
			return CauseNoDisplay, true
		}
	}
	return "", false
}

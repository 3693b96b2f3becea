package chromium

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// flag is one "--name" or "--name=value" command-line switch.
type flag struct{ name, value string }

func (f flag) String() string {
	if f.value == "" {
		return "--" + f.name
	}
	return "--" + f.name + "=" + f.value
}

// defaultFlags are the seed's flags: quiet, isolated, no background traffic
// (this machine's closed network refuses it noisily), no component updates.
//
// Not --disable-extensions: with it Chromium answers Extensions.loadUnpacked
// with an id and loads nothing (as with --disable-extensions-except=), and
// clients load their own extensions through the endpoint. Measured on
// Chromium 156: loadUnpacked needs nothing more, on the pipe (the root or a
// browser-target session) or a port; Debian bookworm's Chromium 148
// answers it "Method not available" without
// --enable-unsafe-extension-debugging (Puppeteer's flag for the same);
// a fresh profile without --disable-extensions runs no extension of
// its own (no extension target or process; only the PDF viewer, a
// component extension with no background, is registered, as it is with the
// flag); an extension loaded over CDP is gone after a relaunch, even on the
// same profile. --disable-component-extensions-with-background-pages keeps
// component extensions that would run a background page from starting
// (Puppeteer's and Playwright's choice too). docs/endpoint.md#extensions.
var defaultFlags = []flag{
	{"no-first-run", ""},
	{"no-default-browser-check", ""},
	{"disable-background-networking", ""},
	{"disable-default-apps", ""},
	{"disable-component-extensions-with-background-pages", ""},
	{"disable-sync", ""},
	{"disable-translate", ""},
	{"metrics-recording-only", ""},
	{"mute-audio", ""},
	{"disable-component-update", ""},
	{"disable-breakpad", ""}, // no crashpad helpers outliving the browser, nothing in ~/.config
	{"enable-unsafe-extension-debugging", ""},
	// WebRTC's UDP goes around a context's proxy, so around a world's network
	// guard (Chromium 156: a page's STUN packets reached a loopback UDP port
	// with the context's proxy set and <-loopback>; none with this flag,
	// while TURN over TCP still passes the proxy). No per-context setting
	// exists; --force-webrtc-ip-handling-policy is not a switch (no effect).
	// The cost, browser-wide: WebRTC without a proxy relays over TCP
	// (TURN) only. A --browser-arg of the same name overrides it.
	{"webrtc-ip-handling-policy", "disable_non_proxied_udp"},
}

// runningAsRoot is a variable so tests can pretend.
var runningAsRoot = func() bool { return runtime.GOOS != "windows" && os.Geteuid() == 0 }

// Piped says whether a launch talks to its browser over the debugging
// pipe, which no other process can reach, rather than a TCP port any local
// user can: always, but where a port is asked for, other runs are to
// attach to the browser (Options.Attachable), or the OS passes no fds 3
// and 4 (Windows).
func Piped(opts launch.Options) bool {
	return runtime.GOOS != "windows" && opts.DebugPort == 0 && !opts.Attachable
}

// Args builds the browser's command line for a launch on userDataDir: the
// debugging pipe, or a debugging port, 0 unless asked for (Chromium picks a
// free one and prints it, which avoids the race of choosing a port and
// binding it later).
func Args(opts launch.Options, userDataDir string) []string {
	return args(opts, userDataDir, Piped(opts))
}

// ArgsOnPort is Args for a launch on a debugging port whatever the options
// (a Windows browser started from WSL takes no fds 3 and 4 across).
func ArgsOnPort(opts launch.Options, userDataDir string) []string {
	return args(opts, userDataDir, false)
}

func args(opts launch.Options, userDataDir string, piped bool) []string {
	flags := []flag{{"remote-debugging-pipe", ""}}
	if !piped {
		flags = []flag{{"remote-debugging-port", strconv.Itoa(opts.DebugPort)}, {"remote-debugging-address", "127.0.0.1"}}
	}
	flags = append(flags, flag{"user-data-dir", userDataDir})
	flags = append(flags, defaultFlags...)
	if opts.Headless {
		flags = append(flags, flag{"headless", "new"})
	}
	if runningAsRoot() {
		// Chromium refuses to start as root without it.
		flags = append(flags, flag{"no-sandbox", ""})
	}
	_, headlessArg := proc.FlagValue(opts.ExtraArgs, "headless")
	headless := opts.Headless || headlessArg
	disable, extra := disabledFeatures(headless, opts.ExtraArgs)
	if disable != "" {
		flags = append(flags, flag{"disable-features", disable})
	}
	if headless && !slices.ContainsFunc(extra, func(a string) bool { name, ok := proc.FlagName(a); return ok && name == noProcessPerSite }) {
		flags = append(flags, flag{"process-per-site", ""}) // see processPerSite
	}
	overridden := map[string]bool{}
	for _, a := range extra {
		if name, ok := proc.FlagName(a); ok {
			overridden[name] = true
		}
	}
	opensURL := false
	for _, a := range extra {
		if !strings.HasPrefix(a, "-") {
			opensURL = true // headless Chromium refuses a second start URL
		}
	}
	var args []string
	for _, f := range flags {
		if overridden[f.name] && !ownedFlags[f.name] {
			continue
		}
		args = append(args, f.String())
	}
	for _, a := range extra {
		if name, ok := proc.FlagName(a); ok && ownedFlags[name] {
			continue // cdpvisor owns these: use --user-data-dir / the endpoint instead
		}
		args = append(args, a)
	}
	if opensURL {
		return args
	}
	return append(args, "about:blank")
}

// ownedFlags are set by cdpvisor alone: how the browser is reached and on
// which profile. A tool's own values for them are read by the bridge.
var ownedFlags = map[string]bool{
	"user-data-dir": true, "remote-debugging-port": true, "remote-debugging-pipe": true,
	"remote-debugging-address": true,
}

// CheckExtraArgs refuses extra browser arguments that would take the
// browser out of cdpvisor's supervision, saying what to use instead.
func CheckExtraArgs(args []string) error {
	instead := map[string]remedy.Fix{
		"user-data-dir":            launch.OwnProfile,
		"remote-debugging-port":    launch.StableEndpoint,
		"remote-debugging-address": remedy.Say("the browser listens on loopback for cdpvisor alone; clients connect to the stable endpoint"),
		"remote-debugging-pipe":    remedy.Say("tools that need the pipe run `cdpvisor bridge` as their browser"),
	}
	for _, a := range args {
		if name, ok := proc.FlagName(a); ok && ownedFlags[name] {
			return launch.OwnedSwitch(a, instead[name])
		}
	}
	return nil
}

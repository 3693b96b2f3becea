package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// options is what the fake takes from its chrome-style command line. Every
// flag it does not know is ignored, as Chromium ignores unknown switches.
type options struct {
	port         int    // -1: no --remote-debugging-port
	address      string // --remote-debugging-address: 127.0.0.1 unless given (headless shell honours it)
	pipe         bool
	userDataDir  string
	headless     bool // accepted; the fake is always headless
	allowOrigins []string

	// Fault injection, see faults.go.
	startDelay        time.Duration
	readyDelay        time.Duration
	neverReady        bool
	crashOnStart      bool // dies of a signal before it is ready, as Chromium sometimes does under load
	exitCode          int  // -1: not asked to exit
	stderrLines       []string
	ignoreSIGTERM     bool
	splitStderr       bool
	crashAfter        int
	detachBeforeCrash bool
	hang              bool
	autoAttachFail    bool
	autoAttachFailAt  string // fail auto-attach in the first process that finds no file here, then create it
	spawnChild        bool
	pidFile           string
	closeDelay        time.Duration // a closed target stays listed this long

	child bool // internal: this process is the helper started by --fake-spawn-child
}

// parseArgs reads --name=value switches. A bad value for a switch the fake
// interprets is an error, so a typo in a test shows up at once.
func parseArgs(args []string) (options, error) {
	o := options{port: -1, exitCode: -1, address: "127.0.0.1"}
	for _, arg := range args {
		name, value, _, ok := proc.SplitFlag(arg)
		if !ok {
			continue // positional arguments such as about:blank
		}
		var err error
		switch name {
		case "remote-debugging-port":
			o.port, err = strconv.Atoi(value)
			if err == nil && (o.port < 0 || o.port > 65535) {
				err = fmt.Errorf("out of range")
			}
		case "remote-debugging-address":
			o.address = value
		case "remote-debugging-pipe":
			o.pipe = true
		case "user-data-dir":
			o.userDataDir = value
		case "headless":
			o.headless = true
		case "remote-allow-origins":
			for _, origin := range strings.Split(value, ",") {
				if origin = strings.TrimSpace(origin); origin != "" {
					o.allowOrigins = append(o.allowOrigins, origin)
				}
			}
		case "fake-start-delay":
			o.startDelay, err = time.ParseDuration(value)
		case "fake-ready-delay":
			o.readyDelay, err = time.ParseDuration(value)
		case "fake-never-ready":
			o.neverReady = true
		case "fake-crash-on-start":
			o.crashOnStart = true
		case "fake-exit-code":
			o.exitCode, err = strconv.Atoi(value)
		case "fake-stderr-line":
			o.stderrLines = append(o.stderrLines, value)
		case "fake-ignore-sigterm":
			o.ignoreSIGTERM = true
		case "fake-split-stderr":
			o.splitStderr = true
		case "fake-crash-after":
			o.crashAfter, err = strconv.Atoi(value)
		case "fake-detach-before-crash":
			o.detachBeforeCrash = true
		case "fake-hang":
			o.hang = true
		case "fake-autoattach-fail":
			o.autoAttachFail = true
		case "fake-autoattach-fail-once":
			o.autoAttachFailAt = value
		case "fake-spawn-child":
			o.spawnChild = true
		case "fake-pid-file":
			o.pidFile = value
		case "fake-close-delay":
			o.closeDelay, err = time.ParseDuration(value)
		case "fake-child":
			o.child = true
		}
		if err != nil {
			return o, fmt.Errorf("fakebrowser: bad value in %s: %v", arg, err)
		}
	}
	return o, nil
}

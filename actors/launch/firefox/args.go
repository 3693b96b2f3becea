package firefox

import (
	"fmt"
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// args builds Firefox's command line for a launch on profile. Port 0
// lets Firefox pick a free port and announce it, as Chromium does.
// --no-remote keeps it from handing the launch to a Firefox already
// running on the profile (then it fails, and the failure is classified).
func args(opts launch.Options, profile string) []string {
	args := []string{
		"--remote-debugging-port=" + strconv.Itoa(opts.DebugPort),
		"--profile", profile,
		"--no-remote",
	}
	if opts.Headless {
		args = append(args, "--headless")
	}
	return append(args, opts.ExtraArgs...)
}

// ownedFlags are cdpvisor's to set, with what to use instead.
// Firefox reads flags with one dash or two, in any case.
var ownedFlags = map[string]string{
	"profile":               "give the profile with cdpvisor's own --user-data-dir (user_data_dir in MCP)",
	"p":                     "give the profile directory with cdpvisor's own --user-data-dir, not a profile name",
	"profilemanager":        "cdpvisor runs Firefox unattended on one profile; give it with --user-data-dir",
	"remote-debugging-port": "cdpvisor picks the browser's port; clients connect to the stable endpoint (--port)",
}

// CheckArgs refuses extra Firefox arguments that would take the
// browser out of cdpvisor's supervision, saying what to use instead.
func CheckArgs(args []string) error {
	for _, a := range args {
		if name, ok := proc.FirefoxFlagName(a); ok && ownedFlags[name] != "" {
			return fmt.Errorf("%s is cdpvisor's to set: %s", a, ownedFlags[name])
		}
	}
	return nil
}

package firefox

import (
	"strconv"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
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
var ownedFlags = map[string]remedy.Fix{
	"profile":               launch.OwnProfile,
	"p":                     {Do: remedy.GivePath, Setting: remedy.UserDataDir, Value: "the profile directory", Text: "(a directory, not a profile name)"},
	"profilemanager":        {Do: remedy.GivePath, Setting: remedy.UserDataDir, Value: "the one profile", Text: "(cdpvisor runs Firefox unattended)"},
	"remote-debugging-port": launch.StableEndpoint,
}

// CheckArgs refuses extra Firefox arguments that would take the
// browser out of cdpvisor's supervision, saying what to use instead.
func CheckArgs(args []string) error {
	for _, a := range args {
		name, ok := proc.FirefoxFlagName(a)
		if fix, owned := ownedFlags[name]; ok && owned {
			return launch.OwnedSwitch(a, fix)
		}
	}
	return nil
}

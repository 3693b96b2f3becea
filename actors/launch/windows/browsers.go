package windows

import (
	"context"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// WindowsBrowser is a main Windows browser process and its arguments.
type Browser struct {
	ProcessId int
	Args      []string
}

// WindowsBrowsersOn lists the Windows browsers (main processes, not their
// helpers) whose --user-data-dir is profile, a Linux path through the
// drive mount.
func BrowsersOn(sys launch.System, profile string) ([]Browser, error) {
	sys = sys.WithDefaults()
	mounts := detect.WSLMounts(sys)
	win, err := mounts.ToWindows(profile)
	if err != nil {
		return nil, err
	}
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts)
	if err != nil {
		return nil, err
	}
	return windowsBrowsersWithArgs(ps, win)
}

func windowsBrowsersWithArgs(ps wsl.PowerShell, profile string) ([]Browser, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	procs, err := Processes(ctx, ps)
	if err != nil {
		return nil, err
	}
	var out []Browser
	for _, wp := range procs {
		args := wsl.SplitCommandLine(wp.CommandLine)
		if dir, ok := proc.FlagValue(args, "user-data-dir"); ok && !proc.IsHelper(args) && sameWindowsPath(dir, profile) {
			out = append(out, Browser{ProcessId: wp.ProcessId, Args: args})
		}
	}
	return out, nil
}

// sameWindowsPath compares two Windows paths as Windows does (case,
// trailing separators).
func sameWindowsPath(a, b string) bool {
	key := func(p string) string { return strings.ToLower(strings.ReplaceAll(strings.TrimRight(p, `\`), "/", `\`)) }
	return key(a) == key(b)
}

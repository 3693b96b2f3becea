package chrome

import (
	"context"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome/wsl"
)

// WindowsBrowser is a main Windows browser process and its arguments.
type WindowsBrowser struct {
	ProcessId int
	Args      []string
}

// WindowsBrowsersOn lists the Windows browsers (main processes, not their
// helpers) whose --user-data-dir is profile, a Linux path through the
// drive mount.
func WindowsBrowsersOn(sys System, profile string) ([]WindowsBrowser, error) {
	sys = sys.withDefaults()
	mounts := WSLMounts(sys)
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

func windowsBrowsersWithArgs(ps wsl.PowerShell, profile string) ([]WindowsBrowser, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	procs, err := WindowsProcesses(ctx, ps)
	if err != nil {
		return nil, err
	}
	var out []WindowsBrowser
	for _, wp := range procs {
		args := wsl.SplitCommandLine(wp.CommandLine)
		if dir, ok := FlagValue(args, "user-data-dir"); ok && !helperProcess(args) && sameWindowsPath(dir, profile) {
			out = append(out, WindowsBrowser{ProcessId: wp.ProcessId, Args: args})
		}
	}
	return out, nil
}

// sameWindowsPath compares two Windows paths as Windows does (case,
// trailing separators).
func sameWindowsPath(a, b string) bool {
	return pathKey("windows", strings.TrimRight(a, `\`)) == pathKey("windows", strings.TrimRight(b, `\`))
}

package windows

import (
	"context"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// The Windows %TEMP% is shared by every WSL distro and every Linux user of
// the Windows user, and a pid means something only in its own distro: the
// temporary profiles of a Windows browser are named
// cdpv-<pid>-<distro>.<uid>-<random>, and a reaper only touches its own
// distro's and user's.

// windowsTempTag is this distro's and this Linux user's mark.
func windowsTempTag(sys launch.System) string {
	distro := wsl.Distro(detect.WSLMachine(sys))
	var b strings.Builder
	for _, r := range distro {
		if b.Len() < 24 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		b.WriteString("wsl")
	}
	return fmt.Sprintf("%s.%d", b.String(), os.Getuid())
}

// windowsTempPrefix starts the name of a temporary profile this
// coordinator creates on the Windows side.
func windowsTempPrefix(sys launch.System) string {
	return fmt.Sprintf("%s%d-%s-", launch.TempPrefix, os.Getpid(), windowsTempTag(sys))
}

// windowsTempOwner reads the coordinator pid of a temporary profile named
// with this distro's and user's tag.
func windowsTempOwner(name, tag string) (int, bool) {
	rest, ok := strings.CutPrefix(name, launch.TempPrefix)
	if !ok {
		return 0, false
	}
	pidText, rest, ok := strings.Cut(rest, "-")
	if !ok || !strings.HasPrefix(rest, tag+"-") {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}

// WindowsLeftover is a temporary profile on the Windows side that a dead
// coordinator of this distro and user left, and what was done about it.
type Leftover struct {
	Dir     string // Linux path, through the drive mount
	Stopped []int  // Windows pids of browsers ended on it
	Err     error
}

// ReapWindows ends the Windows browsers still running on temporary
// profiles that dead coordinators of this distro and Linux user left in
// the Windows %TEMP%, by Windows pid, and removes those profiles. Only main
// browser processes whose --user-data-dir is exactly such a profile are
// ended: never a user's own browser. powershell.exe runs only when there
// is such a profile.
func Reap(sys launch.System) []Leftover {
	sys = sys.WithDefaults()
	if !detect.InWSL(sys) {
		return nil
	}
	tag := windowsTempTag(sys)
	c := path.Join(wsl.DriveRoot(detect.WSLMachine(sys)), "c")
	var left []Leftover
	for _, local := range detect.WindowsLocalAppData(sys, c) {
		dirs, _ := sys.Glob(path.Join(local, "Temp", launch.TempPrefix+"*"))
		for _, dir := range dirs {
			if pid, ok := windowsTempOwner(path.Base(dir), tag); ok && !proc.PidAlive(pid) && sys.IsDir(dir) {
				left = append(left, Leftover{Dir: dir})
			}
		}
	}
	if len(left) == 0 {
		return nil
	}
	mounts := detect.WSLMounts(sys)
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts)
	if err != nil {
		for i := range left {
			left[i].Err = err
		}
		return left
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	procs, listErr := Processes(ctx, ps)
	cancel()
	for i := range left {
		l := &left[i]
		if listErr != nil {
			l.Err = fmt.Errorf("list the Windows browsers: %w; %s kept", listErr, l.Dir)
			continue
		}
		win, err := mounts.ToWindows(l.Dir)
		if err != nil {
			l.Err = err
			continue
		}
		for _, wp := range procs {
			args := wsl.SplitCommandLine(wp.CommandLine)
			dir, ok := proc.FlagValue(args, "user-data-dir")
			if proc.IsHelper(args) || !ok || !sameWindowsPath(dir, win) {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), launch.StopGrace+10*time.Second)
			_, err := ps.Run(ctx, wsl.ScriptStop, wsl.Param{Name: "Id", Value: wp.ProcessId}, wsl.Param{Name: "TimeoutMs", Value: int(launch.StopGrace / time.Millisecond)})
			cancel()
			if err != nil {
				l.Err = fmt.Errorf("stop the Windows browser (pid %d) on %s: %w", wp.ProcessId, win, err)
				break
			}
			l.Stopped = append(l.Stopped, wp.ProcessId)
		}
		if l.Err == nil {
			l.Err = RemoveTemp(sys, l.Dir)
		}
	}
	return left
}

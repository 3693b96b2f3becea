package watchdog

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// endGrace is the guard's SIGTERM grace: the whole cleanup must fit in
// the 2 s a user waits.
const endGrace = time.Second

// endLaunch ends the browser of a launch the dead coordinator had not
// released and removes the launch's directory: its process group when the
// guard was told the pid (and it still is that browser), and in any case
// every process that carries the launch's mark, so that a browser spawned
// an instant before the coordinator died, its pid never told, goes too.
func endLaunch(l message, sys launch.System, log zerolog.Logger) {
	if l.Windows {
		endWindowsLaunch(l, sys, log)
		return
	}
	if id := l.Browser; id != nil && id.Pid > 0 && isLaunchOf(*id, l.TempDir) {
		proc.EndGroup(id.Pid, endGrace)
		log.Info().Int("pid", id.Pid).Msg("ended the browser of a dead coordinator")
	}
	sweepLaunch(l.TempDir, log)
	removeTempDir(l.TempDir, log)
}

// isLaunchOf tells the guarded browser from a process that reused its pid:
// it carries the launch's mark (Linux), or its identity still holds.
func isLaunchOf(id proc.BrowserIdentity, dir string) bool {
	if marked, err := proc.WithEnv(launch.LaunchDirEnv, dir); err == nil && slices.Contains(marked, id.Pid) {
		return true
	}
	return id.Verify() == nil
}

// sweepWait bounds how long a sweep chases the processes of a launch.
const sweepWait = 2 * time.Second

// sweepLaunch kills what is left of a launch in dir: the processes that
// carry its mark (every process it spawned, on Linux) and the browsers
// whose profile lies in dir (a temporary profile, on every OS).
func sweepLaunch(dir string, log zerolog.Logger) {
	if dir == "" {
		return
	}
	for end := time.Now().Add(sweepWait); ; time.Sleep(50 * time.Millisecond) {
		pids := launchProcesses(dir)
		if len(pids) == 0 || time.Now().After(end) {
			return
		}
		for _, pid := range pids {
			_ = proc.SignalGroup(pid, true) // a group leader's helpers with it
			_ = proc.Kill(pid)
			log.Info().Int("pid", pid).Str("dir", dir).Msg("ended a process of a dead coordinator's launch")
		}
	}
}

func launchProcesses(dir string) []int {
	pids, _ := proc.WithEnv(launch.LaunchDirEnv, dir)
	browsers, _ := proc.BrowsersUnder(dir)
	for _, b := range browsers {
		if !slices.Contains(pids, b.Pid) {
			pids = append(pids, b.Pid)
		}
	}
	return pids
}

// sweepTempRoot ends and removes the launches of the dead coordinator that
// the guard never heard of: a directory made an instant before it died.
func sweepTempRoot(spec GuardSpec, log zerolog.Logger) {
	dirs, _ := filepath.Glob(filepath.Join(spec.TempRoot, launch.TempPrefix+strconv.Itoa(spec.CoordinatorPID)+"-*"))
	for _, dir := range dirs {
		sweepLaunch(dir, log)
		removeTempDir(dir, log)
	}
}

// removeTempDir removes a launch directory unless a browser still runs on
// it (one whose identity did not match: never delete under a live process).
func removeTempDir(dir string, log zerolog.Logger) {
	if dir == "" {
		return
	}
	if !strings.HasPrefix(filepath.Base(dir), launch.TempPrefix) {
		log.Warn().Str("dir", dir).Msg("not a cdpvisor temporary directory; kept")
		return
	}
	if users, err := proc.BrowsersUnder(dir); err == nil && len(users) > 0 {
		log.Warn().Str("dir", dir).Int("pid", users[0].Pid).Msg("a process still uses the directory; kept")
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		log.Warn().Err(err).Str("dir", dir).Msg("remove")
	}
}

// removeStateOf removes a state file, and the pointer beside it, if they
// belong to the coordinator with pid.
func removeStateOf(path string, pid int, log zerolog.Logger) {
	for _, p := range []string{path, filepath.Join(filepath.Dir(path), state.PointerFile)} {
		if s, err := state.Read(p); err == nil && s.PID == pid && state.Mine(p) {
			removeDeadState(p, s, log)
		}
	}
}

// removeDeadState removes the state file of a coordinator that was killed,
// keeping its port in the record of ended coordinators for the next one.
func removeDeadState(path string, s state.File, log zerolog.Logger) {
	if err := state.EndDead(path, s); err != nil {
		log.Warn().Err(err).Str("path", path).Msg("the killed coordinator's state file, or its port's record")
	}
}

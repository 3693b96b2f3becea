package watchdog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Reap removes what coordinators that died without cleaning up left
// behind (when even their watchdog was killed): state files of dead pids,
// and temporary browser directories of dead pids together with any
// browser still running on them. Live coordinators' files are untouched.
func Reap(sys launch.System, stateDir, tmpDir string, log zerolog.Logger) {
	states, _ := filepath.Glob(filepath.Join(stateDir, "coordinator-*.json"))
	states = append(states, filepath.Join(stateDir, state.PointerFile))
	for _, path := range states {
		if !state.Mine(path) {
			continue // another user's: never ours to remove
		}
		s, err := state.Read(path)
		switch {
		case err != nil:
			reapCorrupt(path, err, log)
		case !proc.PidAlive(s.PID):
			removeDeadState(path, s, log)
			log.Info().Str("path", path).Int("pid", s.PID).Msg("reaped the state file of a dead coordinator")
		}
	}
	entries, _ := os.ReadDir(tmpDir)
	for _, e := range entries {
		pid, ok := tempDirOwner(e.Name())
		if !ok || !e.IsDir() || proc.PidAlive(pid) {
			continue
		}
		dir := filepath.Join(tmpDir, e.Name())
		browsers, _ := proc.BrowsersUnder(dir)
		for _, b := range browsers {
			proc.EndGroup(b.Pid, endGrace)
			log.Info().Int("pid", b.Pid).Str("dir", dir).Msg("ended a browser left by a dead coordinator")
		}
		sweepLaunch(dir, log) // its helpers, and a browser on a profile of the user's
		removeTempDir(dir, log)
	}
	reapWindows(sys, log)
}

// corruptGrace spares a state file that cannot be parsed this long after
// its last change: it may be being written.
const corruptGrace = 10 * time.Second

// reapCorrupt removes a state file that cannot be parsed, once it is older
// than corruptGrace: no coordinator can be found through it.
func reapCorrupt(path string, err error, log zerolog.Logger) {
	info, statErr := os.Stat(path)
	if statErr != nil || time.Since(info.ModTime()) < corruptGrace {
		return
	}
	if os.Remove(path) == nil {
		log.Info().Err(err).Str("path", path).Msg("reaped a state file that cannot be read")
	}
}

// tempDirOwner reads the coordinator pid out of "cdpv-<pid>-<random>".
func tempDirOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, launch.TempPrefix)
	if !ok {
		return 0, false
	}
	pidText, _, ok := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(pidText)
	return pid, ok && err == nil && pid > 0
}

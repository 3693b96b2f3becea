package watchdog

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// ProcessSpec is what a watchdog process is told about the browser it
// guards (its command line).
type ProcessSpec struct {
	Browser        proc.BrowserIdentity
	RemoveDir      string // the launch's temporary directory, removed after the browser
	StateFile      string // the coordinator's state file
	CoordinatorPID int
}

// Args is the watchdog's command line after "watchdog".
func (s ProcessSpec) Args() []string {
	args := []string{
		"--browser-pid", fmt.Sprint(s.Browser.Pid), "--exe", s.Browser.Exe,
		"--user-data-dir", s.Browser.UserDataDir, "--coordinator-pid", fmt.Sprint(s.CoordinatorPID),
	}
	if s.Browser.Headless {
		args = append(args, "--headless")
	}
	if s.Browser.WindowsPid > 0 {
		args = append(args, "--windows-pid", fmt.Sprint(s.Browser.WindowsPid), "--port", fmt.Sprint(s.Browser.Port))
	}
	if s.RemoveDir != "" {
		args = append(args, "--remove", s.RemoveDir)
	}
	if s.StateFile != "" {
		args = append(args, "--state-file", s.StateFile)
	}
	return args
}

// releaseByte on the pipe tells the watchdog its coordinator let go on
// purpose; EOF without it means the coordinator died.
const releaseByte = 'x'

// Wait blocks on the pipe from the coordinator and reports whether
// the coordinator died (EOF) rather than releasing the watchdog.
func Wait(pipe io.Reader) (coordinatorDied bool) {
	var b [1]byte
	n, _ := pipe.Read(b[:])
	return n == 0 || b[0] != releaseByte
}

// endGrace is the watchdog's SIGTERM grace: the whole cleanup must fit in
// the 2 s a user waits.
const endGrace = time.Second

// Cleanup ends the guarded browser, if that pid still is that
// browser (a reused pid is left alone), then removes the temporary
// directory and the dead coordinator's state files.
func Cleanup(s ProcessSpec, sys launch.System, log zerolog.Logger) {
	if s.Browser.WindowsPid > 0 {
		cleanupWindows(s, sys, log)
		return
	}
	if err := s.Browser.Verify(); err != nil {
		log.Info().Err(err).Msg("browser not ended: it is gone, or the pid is not that browser any more")
	} else {
		proc.EndGroup(s.Browser.Pid, endGrace)
		log.Info().Int("pid", s.Browser.Pid).Msg("ended the browser of a dead coordinator")
	}
	if s.RemoveDir != "" {
		removeTempDir(s.RemoveDir, log)
	}
	if s.StateFile != "" {
		removeStateOf(s.StateFile, s.CoordinatorPID, log)
	}
}

// removeTempDir removes a launch directory unless a browser still runs on
// it (one whose identity did not match: never delete under a live process).
func removeTempDir(dir string, log zerolog.Logger) {
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
	if err := state.RecordEnded(filepath.Dir(path), s); err != nil {
		log.Warn().Err(err).Msg("the killed coordinator's port is not remembered")
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		log.Warn().Err(err).Str("path", path).Msg("remove state file")
	}
}

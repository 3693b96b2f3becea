package watchdog

import (
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
	"github.com/rs/zerolog"
)

// reapWindows is Reap's Windows side, inside WSL: the Windows browsers and
// temporary profiles that dead coordinators of this distro and user left
// in the Windows %TEMP%.
func reapWindows(sys launch.System, log zerolog.Logger) {
	for _, l := range windows.Reap(sys) {
		for _, pid := range l.Stopped {
			log.Info().Int("windowsPid", pid).Str("dir", l.Dir).Msg("ended a Windows browser left by a dead coordinator")
		}
		if l.Err != nil {
			log.Warn().Err(l.Err).Str("dir", l.Dir).Msg("could not reap what a dead coordinator left on the Windows side")
		} else {
			log.Info().Str("dir", l.Dir).Msg("removed a Windows temporary profile left by a dead coordinator")
		}
	}
}

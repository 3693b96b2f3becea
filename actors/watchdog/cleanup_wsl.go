package watchdog

import (
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
	"github.com/rs/zerolog"
)

// cleanupWindows is Cleanup for a Windows browser a coordinator inside WSL
// launched: the pid is Windows', so it is ended through powershell.exe,
// once its command line shows the profile and its port is the one launched.
func cleanupWindows(s ProcessSpec, sys launch.System, log zerolog.Logger) {
	if err := windows.EndBrowser(sys, s.Browser, endGrace); err != nil {
		log.Info().Err(err).Msg("Windows browser not ended")
	} else {
		log.Info().Int("windowsPid", s.Browser.WindowsPid).Msg("ended the Windows browser of a dead coordinator")
	}
	if s.RemoveDir != "" {
		if err := windows.RemoveTemp(sys, s.RemoveDir); err != nil {
			log.Warn().Err(err).Str("dir", s.RemoveDir).Msg("remove")
		}
	}
	if s.StateFile != "" {
		removeStateOf(s.StateFile, s.CoordinatorPID, log)
	}
}

package watchdog

import (
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// cleanupWindows is Cleanup for a Windows browser a coordinator inside WSL
// launched: the pid is Windows', so it is ended through powershell.exe,
// once its command line shows the profile and its port is the one launched.
func cleanupWindows(s ProcessSpec, log zerolog.Logger) {
	sys := chrome.HostSystem()
	if err := chrome.EndWindowsBrowser(sys, s.Browser, endGrace); err != nil {
		log.Info().Err(err).Msg("Windows browser not ended")
	} else {
		log.Info().Int("windowsPid", s.Browser.WindowsPid).Msg("ended the Windows browser of a dead coordinator")
	}
	if s.RemoveDir != "" {
		if err := chrome.RemoveWindowsTemp(sys, s.RemoveDir); err != nil {
			log.Warn().Err(err).Str("dir", s.RemoveDir).Msg("remove")
		}
	}
	if s.StateFile != "" {
		removeStateOf(s.StateFile, s.CoordinatorPID, log)
	}
}

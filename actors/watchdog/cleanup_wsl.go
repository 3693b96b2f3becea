package watchdog

import (
	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows"
)

// endWindowsLaunch is endLaunch for a Windows browser a coordinator inside
// WSL launched: its pid is Windows', so it is ended through powershell.exe
// once its command line shows the profile (and its port, when known). A
// launch whose Windows pid was never told is found by its temporary
// profile, named for the dead coordinator, as the reaper finds it.
func endWindowsLaunch(l message, sys launch.System, log zerolog.Logger) {
	if l.Browser == nil || l.Browser.WindowsPid <= 0 {
		reapWindows(sys, log)
		return
	}
	if err := windows.EndBrowser(sys, *l.Browser, endGrace); err != nil {
		log.Info().Err(err).Msg("Windows browser not ended")
	} else {
		log.Info().Int("windowsPid", l.Browser.WindowsPid).Msg("ended the Windows browser of a dead coordinator")
	}
	if l.TempProfile {
		if err := windows.RemoveTemp(sys, l.TempDir); err != nil {
			log.Warn().Err(err).Str("dir", l.TempDir).Msg("remove")
		}
	}
}

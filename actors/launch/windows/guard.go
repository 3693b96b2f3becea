package windows

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// EndWindowsBrowser ends the Windows browser id names (for the watchdog of
// a killed coordinator) if its pid still is that browser: a main browser
// process whose --user-data-dir is the profile, and whose profile names the
// port it was launched with. A user's own Chrome never matches.
func EndBrowser(sys launch.System, id proc.BrowserIdentity, grace time.Duration) error {
	sys = sys.WithDefaults()
	mounts := detect.WSLMounts(sys)
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts)
	if err != nil {
		return err
	}
	profile, err := mounts.ToWindows(id.UserDataDir)
	if err != nil {
		return err
	}
	pids, err := windowsBrowsersOn(ps, profile)
	if err != nil {
		return err
	}
	found := false
	for _, pid := range pids {
		found = found || pid == id.WindowsPid
	}
	if !found {
		return fmt.Errorf("Windows pid %d is gone, or not a browser on %s", id.WindowsPid, profile)
	}
	if port, err := launch.ActivePort(id.UserDataDir); err == nil && id.Port != 0 && port != id.Port {
		return fmt.Errorf("the browser on %s serves port %d, not %d: another launch", profile, port, id.Port)
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace+10*time.Second)
	defer cancel()
	_, err = ps.Run(ctx, wsl.ScriptStop, wsl.Param{Name: "Id", Value: id.WindowsPid}, wsl.Param{Name: "TimeoutMs", Value: int(grace / time.Millisecond)})
	return err
}

// RemoveWindowsTemp removes a launch's temporary profile (a Linux path
// through the drive mount) on the Windows side, or through the mount.
func RemoveTemp(sys launch.System, dir string) error {
	if !strings.HasPrefix(path.Base(dir), launch.TempPrefix) {
		return fmt.Errorf("%s is not a cdpvisor temporary directory; kept", dir)
	}
	sys = sys.WithDefaults()
	mounts := detect.WSLMounts(sys)
	if ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, mounts); err == nil {
		if win, err := mounts.ToWindows(dir); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, err := ps.Run(ctx, wsl.ScriptRemove, wsl.Param{Name: "Path", Value: win}, wsl.Param{Name: "Prefix", Value: launch.TempPrefix}); err == nil {
				return nil
			}
		}
	}
	return os.RemoveAll(dir)
}

package windows

import (
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// ProfileDir is launch.ProfileDir for a Windows browser's --user-data-dir:
// a Windows path (C:\Users\ann\prof) is taken through its drive mount; the
// Linux path it returns is what the launch translates back for Windows.
func ProfileDir(sys launch.System, p string) (string, error) {
	if wsl.IsWindowsPath(p) {
		linux, err := detect.WSLMounts(sys).ToLinux(p)
		if err != nil {
			return "", err
		}
		p = linux
	}
	return launch.ProfileDir(p)
}

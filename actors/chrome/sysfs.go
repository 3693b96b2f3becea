package chrome

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/cdpvisor/cdpvisor/actors/chrome/wsl"
)

// DetectRootEnv names the variable that sets System.Root for HostSystem:
// CDPVISOR_DETECT_ROOT=/nowhere hides /usr/bin/chromium and the other fixed
// locations (caches and $PATH still count), to try the no-browser path.
const DetectRootEnv = "CDPVISOR_DETECT_ROOT"

// HostSystem returns a System that reads the real machine.
func HostSystem() System {
	home, _ := os.UserHomeDir() // no home only disables the per-user places
	sys := System{
		Root:         os.Getenv(DetectRootEnv),
		GOOS:         runtime.GOOS,
		Getenv:       os.Getenv,
		Exists:       isExecutableFile,
		Glob:         filepath.Glob,
		LookPath:     exec.LookPath,
		EvalSymlinks: filepath.EvalSymlinks,
		HomeDir:      home,
		ReadFile:     os.ReadFile,
		IsDir: func(p string) bool {
			info, err := os.Stat(p)
			return err == nil && info.IsDir()
		},
		PreferWindows: os.Getenv(wsl.PreferWindowsEnv) == "1",
	}
	sys.WindowsLocalAppData = func() (string, error) { return askLocalAppData(sys) }
	return sys
}

// isExecutableFile reports whether p (after following symlinks) is a regular
// file we could run. Windows has no execute bit, so a regular file suffices.
func isExecutableFile(p string) bool {
	info, err := os.Stat(p)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0
}

package detect

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// DetectRootEnv names the variable that sets System.Root for HostSystem:
// CDPVISOR_DETECT_ROOT=/nowhere hides /usr/bin/chromium and the other fixed
// locations (caches and $PATH still count), to try the no-browser path.
const DetectRootEnv = "CDPVISOR_DETECT_ROOT"

// HostSystem returns a System that reads the real machine.
func HostSystem() launch.System {
	home, _ := os.UserHomeDir() // no home only disables the per-user places
	sys := launch.System{
		Root:         os.Getenv(DetectRootEnv),
		GOOS:         runtime.GOOS,
		Getenv:       os.Getenv,
		Exists:       isExecutableFile,
		Glob:         filepath.Glob,
		LookPath:     exec.LookPath,
		EvalSymlinks: filepath.EvalSymlinks,
		ReadFile:     readSmallFile,
		HomeDir:      home,
		IsDir: func(p string) bool {
			info, err := os.Stat(p)
			return err == nil && info.IsDir()
		},
		PreferWindows: os.Getenv(wsl.PreferWindowsEnv) == "1",
	}
	sys.WindowsLocalAppData = func() (string, error) { return askLocalAppData(sys) }
	return sys
}

// maxSmallFile caps what detection reads of one file: application.ini and
// launcher scripts are far smaller; a browser binary is not read whole.
const maxSmallFile = 64 << 10

// readSmallFile reads up to maxSmallFile bytes of a regular file.
func readSmallFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: not a regular file", p)
	}
	return io.ReadAll(io.LimitReader(f, maxSmallFile))
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

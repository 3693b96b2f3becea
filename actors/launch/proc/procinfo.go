package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ProcInfo is what the process table says of one process.
type ProcInfo struct {
	Pid  int
	Exe  string   // the executable's path, symlinks resolved where the OS tells
	Args []string // argv, argv[0] included
}

// ErrNoProcessTable is returned where the process table cannot be read.
var ErrNoProcessTable = errors.New("cannot read the process table on this system")

// BrowserIdentity is what proves that a pid is still the browser that was
// launched, and not an unrelated process that reused the pid.
type BrowserIdentity struct {
	Pid         int
	Exe         string // expected executable (resolved); "" to skip the check
	UserDataDir string
	Headless    bool // then --headless must be on its command line
	// A Windows browser (WSL): its Windows pid and debugging port, with
	// which the watchdog finds it through powershell.exe; Pid is 0.
	WindowsPid int
	Port       int
}

// Verify checks that the process at id.Pid is that browser.
func (id BrowserIdentity) Verify() error {
	info, err := ProcessInfo(id.Pid)
	if err != nil {
		return fmt.Errorf("pid %d: %w", id.Pid, err)
	}
	return id.matches(info)
}

func (id BrowserIdentity) matches(info ProcInfo) error {
	if id.Exe != "" && !sameFile(id.Exe, info.Exe) {
		return fmt.Errorf("pid %d runs %s, not the browser %s", info.Pid, info.Exe, id.Exe)
	}
	if dir, ok := ProfileArg(info.Args); !ok || filepath.Clean(dir) != filepath.Clean(id.UserDataDir) {
		return fmt.Errorf("pid %d is not on the profile %s", info.Pid, id.UserDataDir)
	}
	if id.Headless {
		if _, ok := FlagValue(info.Args, "headless"); !ok {
			return fmt.Errorf("pid %d is not headless", info.Pid)
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA == nil && errB == nil {
		return ra == rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// BrowsersUnder lists the main browser processes (not their renderer, GPU
// or content helpers, nor cdpvisor bridges, which carry the tool's flags)
// whose profile (--user-data-dir, Firefox's -profile) is dir or lies inside it.
func BrowsersUnder(dir string) ([]ProcInfo, error) {
	all, err := Processes()
	if err != nil {
		return nil, err
	}
	self, _ := os.Executable()
	dir = filepath.Clean(dir)
	var out []ProcInfo
	for _, p := range all {
		if IsHelper(p.Args) || (self != "" && sameFile(p.Exe, self)) {
			continue
		}
		profile, ok := ProfileArg(p.Args)
		if !ok {
			continue
		}
		profile = filepath.Clean(profile)
		if profile == dir || strings.HasPrefix(profile, dir+string(filepath.Separator)) {
			out = append(out, p)
		}
	}
	return out, nil
}

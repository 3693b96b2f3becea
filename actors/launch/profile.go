package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// UserPath makes a directory a user named absolute, the one way for every
// such directory (what names it in errors): `~` and `~/x` expand to the
// user's home (values from the environment or an MCP call are never
// shell-expanded), a relative path is taken against the working directory.
// It touches nothing on disk.
func UserPath(what, p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%s %s: cannot expand ~: %w", what, p, err)
		}
		p = filepath.Join(home, p[1:])
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, p, err)
	}
	return abs, nil
}

// ProfileDir makes a --user-data-dir usable before any browser starts: `~`
// and `~/x` expand to the user's home (values from the environment or an
// MCP call are never shell-expanded), a relative path becomes absolute
// against the working directory, a missing directory is created (0700, as
// Chromium would), and anything that is not a writable directory is
// refused with its name. Chromium given a profile it cannot use falls back
// to the user's own default profile, cookies and sessions included: that
// must never happen by accident.
func ProfileDir(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", remedy.With(errors.New("the profile directory is empty"),
			remedy.Fix{Do: remedy.LeaveOut, Setting: remedy.UserDataDir, Text: "for a fresh temporary profile"})
	}
	abs, err := UserPath("profile directory", p)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(abs, 0o700); err != nil {
			return "", fmt.Errorf("profile directory %s does not exist and cannot be created: %w", abs, err)
		}
	case err != nil:
		return "", fmt.Errorf("profile directory %s: %w", abs, err)
	case !info.IsDir():
		return "", remedy.With(fmt.Errorf("profile directory %s is not a directory (it is a %s)", abs, fileKind(info.Mode())),
			remedy.Fix{Do: remedy.GivePath, Setting: remedy.UserDataDir, Value: "a directory"},
			remedy.Fix{Do: remedy.LeaveOut, Setting: remedy.UserDataDir, Text: "for a fresh temporary profile"})
	}
	probe, err := os.CreateTemp(abs, ".cdpvisor-write-check-*")
	if err != nil {
		return "", fmt.Errorf("profile directory %s is not writable: %w", abs, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return abs, nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&os.ModeSymlink != 0:
		return "symlink"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "file"
}

// The fixes for a browser switch cdpvisor owns, shared by the families.
var (
	// OwnProfile: the profile is cdpvisor's own setting, not a switch.
	OwnProfile = remedy.Fix{Do: remedy.GivePath, Setting: remedy.UserDataDir, Value: "the profile", Text: "instead"}
	// StableEndpoint: the browser's port is cdpvisor's; clients use the endpoint.
	StableEndpoint = remedy.Fix{Do: remedy.UseEndpoint, Setting: remedy.Port}
)

// OwnedSwitch refuses a browser switch cdpvisor sets itself, naming it
// without its dashes, as both a flag's value and a tool's args hold it.
func OwnedSwitch(arg string, fix remedy.Fix) error {
	name, _, _ := strings.Cut(arg, "=")
	return remedy.With(fmt.Errorf("the browser switch %q is cdpvisor's to set", strings.TrimLeft(name, "-")), fix)
}

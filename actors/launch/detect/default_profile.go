package detect

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// defaultProfiles are where each type keeps its default profile, under
// the home directory (Linux, macOS) or LocalAppData (Windows).
var defaultProfiles = map[string]map[launch.Type]string{
	"linux": {
		launch.Chrome: ".config/google-chrome", launch.Chromium: ".config/chromium",
		launch.Edge: ".config/microsoft-edge", launch.Brave: ".config/BraveSoftware/Brave-Browser",
	},
	"darwin": {
		launch.Chrome: "Library/Application Support/Google/Chrome", launch.Chromium: "Library/Application Support/Chromium",
		launch.Edge: "Library/Application Support/Microsoft Edge", launch.Brave: "Library/Application Support/BraveSoftware/Brave-Browser",
	},
	"windows": {
		launch.Chrome: `Google\Chrome\User Data`, launch.Chromium: `Chromium\User Data`,
		launch.Edge: `Microsoft\Edge\User Data`, launch.Brave: `BraveSoftware\Brave-Browser\User Data`,
	},
}

// DefaultProfile is the profile a browser of b's type runs on when the
// user starts it, where it writes DevToolsActivePort once the user allows
// remote debugging.
func DefaultProfile(sys launch.System, b launch.Browser) (string, error) {
	goos := sys.GOOS
	if b.Windows {
		goos = "windows"
	}
	rel, ok := defaultProfiles[goos][b.Type]
	if !ok {
		return "", fmt.Errorf("no default profile known for %s on %s: give --user-data-dir", b.Type.Product(), sys.GOOS)
	}
	if b.Windows { // inside WSL: the Windows user's, through the drive mount
		local := WindowsLocalAppData(sys, path.Join(wsl.DriveRoot(WSLMachine(sys)), "c"))
		if len(local) != 1 {
			return "", fmt.Errorf("cannot tell which Windows user's %s to attach to (%d found): give --user-data-dir", b.Type.Product(), len(local))
		}
		return path.Join(local[0], strings.ReplaceAll(rel, `\`, "/")), nil
	}
	if sys.GOOS == "windows" {
		base := ""
		if sys.Getenv != nil {
			base = sys.Getenv("LOCALAPPDATA")
		}
		if base == "" {
			return "", fmt.Errorf("LOCALAPPDATA is not set: give --user-data-dir")
		}
		return base + `\` + rel, nil
	}
	if sys.HomeDir == "" {
		return "", fmt.Errorf("no home directory to find %s's default profile in: give --user-data-dir", b.Type.Product())
	}
	return filepath.Join(sys.HomeDir, filepath.FromSlash(rel)), nil
}

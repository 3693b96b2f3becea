package chrome

import (
	"path"
	"sort"
	"strings"
)

// candidate is one place a browser may be installed. When viaPATH is set,
// Path is a bare command name to look up in $PATH instead of a file path.
type candidate struct {
	Type    BrowserType
	Path    string
	viaPATH bool
}

// linuxPaths are the fixed install locations used by the official packages
// (deb/rpm), distro packages and snap.
var linuxPaths = []candidate{
	{Type: Chrome, Path: "/usr/bin/google-chrome"},
	{Type: Chrome, Path: "/usr/bin/google-chrome-stable"},
	{Type: Chrome, Path: "/opt/google/chrome/chrome"},
	{Type: Edge, Path: "/usr/bin/microsoft-edge"},
	{Type: Edge, Path: "/usr/bin/microsoft-edge-stable"},
	{Type: Edge, Path: "/opt/microsoft/msedge/msedge"},
	{Type: Chromium, Path: "/usr/bin/chromium"},
	{Type: Chromium, Path: "/usr/bin/chromium-browser"},
	{Type: Chromium, Path: "/snap/bin/chromium"},
	{Type: Brave, Path: "/usr/bin/brave-browser"},
	{Type: Brave, Path: "/opt/brave.com/brave/brave"},
}

// linuxCommands catch installs outside the fixed locations (Nix, Homebrew on
// Linux, /usr/local, custom builds) through $PATH.
var linuxCommands = []candidate{
	{Type: Chrome, Path: "google-chrome", viaPATH: true},
	{Type: Chrome, Path: "google-chrome-stable", viaPATH: true},
	{Type: Edge, Path: "microsoft-edge", viaPATH: true},
	{Type: Chromium, Path: "chromium", viaPATH: true},
	{Type: Chromium, Path: "chromium-browser", viaPATH: true},
	{Type: Brave, Path: "brave-browser", viaPATH: true},
}

// macApp is an application bundle and the executable inside Contents/MacOS.
type macApp struct {
	Type   BrowserType
	Bundle string
	Exe    string
}

var macApps = []macApp{
	{Type: Chrome, Bundle: "Google Chrome.app", Exe: "Google Chrome"},
	{Type: Edge, Bundle: "Microsoft Edge.app", Exe: "Microsoft Edge"},
	{Type: Chromium, Bundle: "Chromium.app", Exe: "Chromium"},
	{Type: Brave, Bundle: "Brave Browser.app", Exe: "Brave Browser"},
}

// windowsRoots are the environment variables naming the directories that
// system-wide (64/32-bit) and per-user installers write to.
var windowsRoots = []string{"PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA"}

// windowsExes are relative to each of windowsRoots, with backslashes.
var windowsExes = []candidate{
	{Type: Chrome, Path: `Google\Chrome\Application\chrome.exe`},
	{Type: Edge, Path: `Microsoft\Edge\Application\msedge.exe`},
	{Type: Chromium, Path: `Chromium\Application\chrome.exe`},
	{Type: Brave, Path: `BraveSoftware\Brave-Browser\Application\brave.exe`},
}

// candidates lists where to look on sys.GOOS, ordered by BrowserTypes
// preference and then by the order of the lists above. Paths are built with
// the target OS's separators, not the host's, so tests can fake any OS.
func candidates(sys System) []candidate {
	var list []candidate
	switch sys.GOOS {
	case "darwin":
		for _, dir := range macAppDirs(sys) {
			for _, app := range macApps {
				list = append(list, candidate{
					Type: app.Type,
					Path: path.Join(dir, app.Bundle, "Contents", "MacOS", app.Exe),
				})
			}
		}
	case "windows":
		for _, root := range windowsRootDirs(sys) {
			for _, exe := range windowsExes {
				list = append(list, candidate{Type: exe.Type, Path: root + `\` + exe.Path})
			}
		}
	default:
		// Linux and the BSDs share the freedesktop layout closely enough.
		list = append(list, linuxPaths...)
		list = append(list, linuxCommands...)
	}
	sort.SliceStable(list, func(i, j int) bool {
		return typeRank(list[i].Type) < typeRank(list[j].Type)
	})
	return list
}

// macAppDirs are the system and per-user application folders.
func macAppDirs(sys System) []string {
	dirs := []string{"/Applications"}
	if sys.HomeDir != "" {
		dirs = append(dirs, path.Join(sys.HomeDir, "Applications"))
	}
	return dirs
}

// windowsRootDirs returns the values of windowsRoots that are set, without a
// trailing backslash.
func windowsRootDirs(sys System) []string {
	var dirs []string
	for _, name := range windowsRoots {
		if dir := strings.TrimRight(sys.Getenv(name), `\/`); dir != "" {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// searchedPlaces summarises candidates for error messages: the directories
// searched, not every file name.
func searchedPlaces(sys System) []string {
	var places []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			places = append(places, p)
		}
	}
	switch sys.GOOS {
	case "darwin":
		for _, dir := range macAppDirs(sys) {
			add(dir)
		}
	case "windows":
		for _, dir := range windowsRootDirs(sys) {
			add(dir)
		}
		if len(places) == 0 {
			add("nowhere: %" + strings.Join(windowsRoots, "%, %") + "% are all unset")
		}
	default:
		for _, c := range linuxPaths {
			add(path.Dir(c.Path))
		}
		add("$PATH")
	}
	return places
}

package detect

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// Where a detected browser came from (Browser.Source).
const (
	SourceSystem     = "system"     // an installer's fixed location
	SourcePATH       = "path"       // a command found on $PATH
	SourceCdpvisor   = "cdpvisor"   // `cdpvisor install`, in the user's cache
	SourcePlaywright = "playwright" // `playwright install`, in ms-playwright
	SourcePuppeteer  = "puppeteer"  // Puppeteer's or @puppeteer/browsers' cache
	SourceUser       = "user"       // a path given to --browser
)

// Release channels (Browser.Channel). Snapshot is a Chromium tip-of-tree
// build from chromium-browser-snapshots: no channel at all.
const (
	ChannelStable   = "stable"
	ChannelBeta     = "beta"
	ChannelDev      = "dev"
	ChannelCanary   = "canary"
	ChannelSnapshot = "snapshot"
	ChannelNightly  = "nightly"    // Brave's and Firefox's daily builds
	ChannelESR      = "esr"        // Firefox Extended Support Release
	ChannelDevEd    = "devedition" // Firefox Developer Edition
)

// candidate is one place a browser may be installed. When viaPATH is set,
// Path is a bare command name to look up in $PATH instead of a file path.
type candidate struct {
	Type    launch.Type
	Path    string
	Channel string // "" when the build follows no known channel
	Source  string
	Name    string // overrides the type's product name
	viaPATH bool
	shell   bool // chrome-headless-shell: headless only, so chosen last
	Windows bool // a Windows install seen from WSL
}

// sysAt and onPATH are shorthands for the tables below.
func sysAt(t launch.Type, channel, p string) candidate {
	return candidate{Type: t, Path: p, Channel: channel, Source: SourceSystem}
}

func onPATH(t launch.Type, channel, name string) candidate {
	return candidate{Type: t, Path: name, Channel: channel, Source: SourcePATH, viaPATH: true}
}

// linuxPaths are the fixed install locations used by the official packages
// (deb/rpm, every channel), distro packages and snap.
var linuxPaths = []candidate{
	sysAt(launch.Chrome, ChannelStable, "/usr/bin/google-chrome"),
	sysAt(launch.Chrome, ChannelStable, "/usr/bin/google-chrome-stable"),
	sysAt(launch.Chrome, ChannelStable, "/opt/google/chrome/chrome"),
	sysAt(launch.Chrome, ChannelBeta, "/usr/bin/google-chrome-beta"),
	sysAt(launch.Chrome, ChannelBeta, "/opt/google/chrome-beta/chrome"),
	sysAt(launch.Chrome, ChannelDev, "/usr/bin/google-chrome-unstable"),
	sysAt(launch.Chrome, ChannelDev, "/opt/google/chrome-unstable/chrome"),
	sysAt(launch.Chrome, ChannelCanary, "/usr/bin/google-chrome-canary"),
	sysAt(launch.Chrome, ChannelCanary, "/opt/google/chrome-canary/chrome"),
	sysAt(launch.Edge, ChannelStable, "/usr/bin/microsoft-edge"),
	sysAt(launch.Edge, ChannelStable, "/usr/bin/microsoft-edge-stable"),
	sysAt(launch.Edge, ChannelStable, "/opt/microsoft/msedge/msedge"),
	sysAt(launch.Edge, ChannelBeta, "/usr/bin/microsoft-edge-beta"),
	sysAt(launch.Edge, ChannelBeta, "/opt/microsoft/msedge-beta/msedge"),
	sysAt(launch.Edge, ChannelDev, "/usr/bin/microsoft-edge-dev"),
	sysAt(launch.Edge, ChannelDev, "/opt/microsoft/msedge-dev/msedge"),
	sysAt(launch.Chromium, ChannelStable, "/usr/bin/chromium"),
	sysAt(launch.Chromium, ChannelStable, "/usr/bin/chromium-browser"),
	sysAt(launch.Chromium, ChannelStable, "/snap/bin/chromium"),
	sysAt(launch.Brave, ChannelStable, "/usr/bin/brave-browser"),
	sysAt(launch.Brave, ChannelStable, "/opt/brave.com/brave/brave"),
	sysAt(launch.Brave, ChannelBeta, "/usr/bin/brave-browser-beta"),
	sysAt(launch.Brave, ChannelBeta, "/opt/brave.com/brave-beta/brave"),
	sysAt(launch.Brave, ChannelNightly, "/usr/bin/brave-browser-nightly"),
	sysAt(launch.Brave, ChannelNightly, "/opt/brave.com/brave-nightly/brave"),
}

// linuxCommands catch installs outside the fixed locations (Nix, Homebrew on
// Linux, /usr/local, custom builds) through $PATH.
var linuxCommands = []candidate{
	onPATH(launch.Chrome, ChannelStable, "google-chrome"),
	onPATH(launch.Chrome, ChannelStable, "google-chrome-stable"),
	onPATH(launch.Chrome, ChannelBeta, "google-chrome-beta"),
	onPATH(launch.Chrome, ChannelDev, "google-chrome-unstable"),
	onPATH(launch.Chrome, ChannelCanary, "google-chrome-canary"),
	onPATH(launch.Edge, ChannelStable, "microsoft-edge"),
	onPATH(launch.Edge, ChannelStable, "microsoft-edge-stable"),
	onPATH(launch.Edge, ChannelBeta, "microsoft-edge-beta"),
	onPATH(launch.Edge, ChannelDev, "microsoft-edge-dev"),
	onPATH(launch.Chromium, ChannelStable, "chromium"),
	onPATH(launch.Chromium, ChannelStable, "chromium-browser"),
	onPATH(launch.Brave, ChannelStable, "brave-browser"),
	onPATH(launch.Brave, ChannelBeta, "brave-browser-beta"),
	onPATH(launch.Brave, ChannelNightly, "brave-browser-nightly"),
}

// macApp is an application bundle and the executable inside Contents/MacOS.
type macApp struct {
	Type    launch.Type
	Channel string
	Bundle  string
	Exe     string
}

var macApps = []macApp{
	{launch.Chrome, ChannelStable, "Google Chrome.app", "Google Chrome"},
	{launch.Chrome, ChannelBeta, "Google Chrome Beta.app", "Google Chrome Beta"},
	{launch.Chrome, ChannelDev, "Google Chrome Dev.app", "Google Chrome Dev"},
	{launch.Chrome, ChannelCanary, "Google Chrome Canary.app", "Google Chrome Canary"},
	{launch.Edge, ChannelStable, "Microsoft Edge.app", "Microsoft Edge"},
	{launch.Edge, ChannelBeta, "Microsoft Edge Beta.app", "Microsoft Edge Beta"},
	{launch.Edge, ChannelDev, "Microsoft Edge Dev.app", "Microsoft Edge Dev"},
	{launch.Edge, ChannelCanary, "Microsoft Edge Canary.app", "Microsoft Edge Canary"},
	{launch.Chromium, ChannelStable, "Chromium.app", "Chromium"},
	{launch.Brave, ChannelStable, "Brave Browser.app", "Brave Browser"},
	{launch.Brave, ChannelBeta, "Brave Browser Beta.app", "Brave Browser Beta"},
	{launch.Brave, ChannelNightly, "Brave Browser Nightly.app", "Brave Browser Nightly"},
}

// windowsRoots are the environment variables naming the directories that
// system-wide (64/32-bit) and per-user installers write to.
var windowsRoots = []string{"PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA"}

// windowsExes are relative to each of windowsRoots, with backslashes.
// Canary is "SxS" (side by side) and installs per user only.
var windowsExes = []candidate{
	{Type: launch.Chrome, Channel: ChannelStable, Path: `Google\Chrome\Application\chrome.exe`},
	{Type: launch.Chrome, Channel: ChannelBeta, Path: `Google\Chrome Beta\Application\chrome.exe`},
	{Type: launch.Chrome, Channel: ChannelDev, Path: `Google\Chrome Dev\Application\chrome.exe`},
	{Type: launch.Chrome, Channel: ChannelCanary, Path: `Google\Chrome SxS\Application\chrome.exe`},
	{Type: launch.Edge, Channel: ChannelStable, Path: `Microsoft\Edge\Application\msedge.exe`},
	{Type: launch.Edge, Channel: ChannelBeta, Path: `Microsoft\Edge Beta\Application\msedge.exe`},
	{Type: launch.Edge, Channel: ChannelDev, Path: `Microsoft\Edge Dev\Application\msedge.exe`},
	{Type: launch.Edge, Channel: ChannelCanary, Path: `Microsoft\Edge SxS\Application\msedge.exe`},
	{Type: launch.Chromium, Path: `Chromium\Application\chrome.exe`},
	{Type: launch.Brave, Channel: ChannelStable, Path: `BraveSoftware\Brave-Browser\Application\brave.exe`},
	{Type: launch.Brave, Channel: ChannelBeta, Path: `BraveSoftware\Brave-Browser-Beta\Application\brave.exe`},
	{Type: launch.Brave, Channel: ChannelNightly, Path: `BraveSoftware\Brave-Browser-Nightly\Application\brave.exe`},
}

// channelRank orders channels within a type: the stable release first, the
// builds that follow no channel (Playwright's pinned builds) next, then the
// pre-release channels.
func channelRank(ch string) int {
	switch ch {
	case ChannelStable:
		return 0
	case ChannelESR:
		return 1
	case "":
		return 2
	case ChannelBeta:
		return 3
	case ChannelDev, ChannelDevEd:
		return 4
	case ChannelCanary, ChannelNightly:
		return 5
	}
	return 6 // snapshot
}

// candidates lists where to look on sys.GOOS: fixed locations, $PATH names,
// then the download caches (cdpvisor's own, Playwright's, Puppeteer's),
// ordered by BrowserTypes preference, headless shells after full browsers,
// then channel.
// Paths are built with the target OS's separators, not the host's, so tests
// can fake any OS.
func candidates(sys launch.System) []candidate {
	var list []candidate
	switch sys.GOOS {
	case "darwin":
		for _, dir := range macAppDirs(sys) {
			for _, app := range macApps {
				list = append(list, candidate{
					Type: app.Type, Channel: app.Channel, Source: SourceSystem,
					Path: path.Join(dir, app.Bundle, "Contents", "MacOS", app.Exe),
				})
			}
			for _, app := range macFirefoxApps {
				list = append(list, candidate{
					Type: launch.Firefox, Channel: app.Channel, Source: SourceSystem,
					Path: path.Join(dir, app.Bundle, "Contents", "MacOS", app.Exe),
				})
			}
		}
	case "windows":
		for _, root := range windowsRootDirs(sys) {
			for _, exe := range slices.Concat(windowsExes, windowsFirefoxExes) {
				c := exe
				c.Source, c.Path = SourceSystem, root+`\`+exe.Path
				list = append(list, c)
			}
		}
	default:
		// Linux and the BSDs share the freedesktop layout closely enough.
		for _, c := range slices.Concat(linuxPaths, linuxFirefoxPaths) {
			c.Path = rooted(sys, c.Path)
			list = append(list, c)
		}
		list = append(list, linuxCommands...)
		list = append(list, linuxFirefoxCommands...)
		if InWSL(sys) {
			list = append(list, wslCandidates(sys)...)
		}
	}
	list = append(list, cacheCandidates(sys)...)
	for i := range list {
		if list[i].Name == "" {
			list[i].Name = productName(list[i].Type, list[i].Channel)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if ra, rb := typeRank(a.Type), typeRank(b.Type); ra != rb {
			return ra < rb
		}
		if a.shell != b.shell {
			return b.shell
		}
		if a.Windows != b.Windows { // a type's Linux installs first; see PreferWindows
			return b.Windows
		}
		return channelRank(a.Channel) < channelRank(b.Channel)
	})
	return list
}

// productName is what users call a type's channel build: "Google Chrome
// Beta"; the stable release and channel-less builds go by the type's name.
func productName(t launch.Type, channel string) string {
	if t == launch.Firefox {
		return firefoxProductName(channel)
	}
	name := t.Product()
	switch channel {
	case ChannelBeta, ChannelDev, ChannelCanary, ChannelNightly:
		return name + " " + strings.ToUpper(channel[:1]) + channel[1:]
	}
	return name
}

// rooted puts an absolute system location under sys.Root (the detection
// root, see HostSystem), so a test or a by-hand check can hide the
// machine's own browsers.
func rooted(sys launch.System, p string) string {
	if sys.Root == "" {
		return p
	}
	return strings.TrimRight(sys.Root, "/") + p
}

// macAppDirs are the system and per-user application folders.
func macAppDirs(sys launch.System) []string {
	dirs := []string{rooted(sys, "/Applications")}
	if sys.HomeDir != "" {
		dirs = append(dirs, path.Join(sys.HomeDir, "Applications"))
	}
	return dirs
}

// windowsRootDirs returns the values of windowsRoots that are set, without a
// trailing backslash.
func windowsRootDirs(sys launch.System) []string {
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
func searchedPlaces(sys launch.System) []string {
	var places []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
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
			add(path.Dir(rooted(sys, c.Path)))
		}
		add("$PATH")
		if InWSL(sys) {
			c := path.Join(wsl.DriveRoot(WSLMachine(sys)), "c")
			add(path.Join(c, "Program Files"))
			add(path.Join(c, "Program Files (x86)"))
			add(path.Join(c, "Users", "*", "AppData", "Local"))
		}
	}
	for _, c := range cacheRoots(sys) {
		add(c.dir)
	}
	return places
}

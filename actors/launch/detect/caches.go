package detect

import (
	"path"
	"sort"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// InstallDirEnv moves the cache `cdpvisor install` writes to and detection
// reads from (default: InstallRoot).
const InstallDirEnv = "CDPVISOR_INSTALL_DIR"

// Products as `cdpvisor install` (and Puppeteer) name them; each is a
// directory in the cache root.
const (
	ProductChrome        = "chrome"                // Chrome for Testing
	ProductHeadlessShell = "chrome-headless-shell" // Chrome for Testing's old-headless shell
	ProductChromium      = "chromium"              // a Chromium snapshot build
)

// cacheRoot is a download cache: cdpvisor's, Playwright's or Puppeteer's.
type cacheRoot struct {
	dir    string
	source string
}

// cacheEntry says which directories of a cache hold which browser.
type cacheEntry struct {
	dirGlob string // a browser's own directory, relative to the cache root
	typ     launch.Type
	name    string // "": the product name of typ and the channel
	shell   bool
	channel func(dirName string) string
	exes    func(goos string) []string // the executables inside, per OS; nil: exeGlobs
}

func noChannel(string) string { return "" }

func fixedChannel(ch string) func(string) string { return func(string) string { return ch } }

// channelPrefix reads cdpvisor's "<channel>-<version>" directory names.
func channelPrefix(dir string) string {
	ch, _, _ := strings.Cut(dir, "-")
	return ch
}

const (
	cftName   = "Google Chrome for Testing"
	shellName = "Chrome Headless Shell"
)

// cacheLayouts: cdpvisor's own cache is laid out as
// <product>/<channel>-<version>/<the zip's top directory>/…; Puppeteer's as
// <product>/<platform>-<build>/…; Playwright's as chromium-<revision>/….
var cacheLayouts = map[string][]cacheEntry{
	SourceCdpvisor: {
		{ProductChrome + "/*", launch.Chrome, cftName, false, channelPrefix, nil},
		{ProductChromium + "/*", launch.Chromium, "Chromium", false, fixedChannel(ChannelSnapshot), nil},
		{ProductHeadlessShell + "/*", launch.Chrome, shellName, true, channelPrefix, nil},
	},
	SourcePuppeteer: {
		{ProductChrome + "/*", launch.Chrome, cftName, false, noChannel, nil},
		{ProductChromium + "/*", launch.Chromium, "Chromium", false, fixedChannel(ChannelSnapshot), nil},
		{ProductHeadlessShell + "/*", launch.Chrome, shellName, true, noChannel, nil},
		{productFirefox + "/*", launch.Firefox, "", false, puppeteerFirefoxChannel, puppeteerFirefoxExes},
	},
	SourcePlaywright: {
		{"chromium-[0-9]*", launch.Chromium, "Chromium", false, noChannel, nil},
		{"chromium-tip-of-tree-[0-9]*", launch.Chromium, "Chromium", false, fixedChannel(ChannelSnapshot), nil},
		{"chromium_headless_shell-[0-9]*", launch.Chromium, shellName, true, noChannel, nil},
	},
}

// exeGlobs are the executables inside a browser's directory, per OS: Chrome
// for Testing's zips (chrome-linux64/chrome, …) and Chromium snapshots'
// (chrome-linux/chrome, …), which Playwright's older builds also use.
func exeGlobs(goos string, shell bool) []string {
	switch {
	case goos == "windows" && shell:
		return []string{`chrome-headless-shell-win*\chrome-headless-shell.exe`, `chrome-win*\headless_shell.exe`}
	case goos == "windows":
		return []string{`chrome-win*\chrome.exe`}
	case goos == "darwin" && shell:
		return []string{"chrome-headless-shell-mac*/chrome-headless-shell", "chrome-mac*/headless_shell"}
	case goos == "darwin":
		return []string{
			"chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
			"chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
		}
	case shell:
		return []string{"chrome-headless-shell-linux*/chrome-headless-shell", "chrome-linux*/headless_shell"}
	}
	return []string{"chrome-linux*/chrome"}
}

// InstallRoot is where `cdpvisor install` puts browsers and where detection
// finds them: $CDPVISOR_INSTALL_DIR, else the user's cache directory plus
// cdpvisor/browsers ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches
// on macOS, %LOCALAPPDATA% on Windows). "" when none can be found.
func InstallRoot(sys launch.System) string {
	sys = sys.WithDefaults()
	if dir := sys.Getenv(InstallDirEnv); dir != "" {
		return dir
	}
	cache := userCacheDir(sys)
	if cache == "" {
		return ""
	}
	return joinOS(sys.GOOS, cache, "cdpvisor", "browsers")
}

// userCacheDir is os.UserCacheDir for sys.
func userCacheDir(sys launch.System) string {
	switch sys.GOOS {
	case "windows":
		return strings.TrimRight(sys.Getenv("LOCALAPPDATA"), `\/`)
	case "darwin":
		if sys.HomeDir == "" {
			return ""
		}
		return path.Join(sys.HomeDir, "Library", "Caches")
	}
	if dir := sys.Getenv("XDG_CACHE_HOME"); path.IsAbs(dir) {
		return dir
	}
	if sys.HomeDir == "" {
		return ""
	}
	return path.Join(sys.HomeDir, ".cache")
}

// cacheRoots are the caches to search, in order: ours, Playwright's
// (PLAYWRIGHT_BROWSERS_PATH, else ms-playwright in the user cache), and
// Puppeteer's (PUPPETEER_CACHE_DIR, else ~/.cache/puppeteer on every OS).
func cacheRoots(sys launch.System) []cacheRoot {
	var roots []cacheRoot
	if dir := InstallRoot(sys); dir != "" {
		roots = append(roots, cacheRoot{dir, SourceCdpvisor})
	}
	// "0" means "inside node_modules": nothing we could know the place of.
	if dir := sys.Getenv("PLAYWRIGHT_BROWSERS_PATH"); dir != "" && dir != "0" {
		roots = append(roots, cacheRoot{dir, SourcePlaywright})
	} else if cache := userCacheDir(sys); cache != "" {
		roots = append(roots, cacheRoot{joinOS(sys.GOOS, cache, "ms-playwright"), SourcePlaywright})
	}
	if dir := sys.Getenv("PUPPETEER_CACHE_DIR"); dir != "" {
		roots = append(roots, cacheRoot{dir, SourcePuppeteer})
	} else if sys.HomeDir != "" {
		roots = append(roots, cacheRoot{joinOS(sys.GOOS, sys.HomeDir, ".cache", "puppeteer"), SourcePuppeteer})
	}
	return roots
}

// cacheCandidates lists the executables in the caches, newest build first
// within each kind.
func cacheCandidates(sys launch.System) []candidate {
	var list []candidate
	for _, root := range cacheRoots(sys) {
		for _, e := range cacheLayouts[root.source] {
			dirs, _ := sys.Glob(joinOS(sys.GOOS, root.dir, e.dirGlob))
			sort.SliceStable(dirs, func(i, j int) bool {
				return compareVersions(buildOf(sys.GOOS, dirs[i]), buildOf(sys.GOOS, dirs[j])) > 0
			})
			globs := exeGlobs(sys.GOOS, e.shell)
			if e.exes != nil {
				globs = e.exes(sys.GOOS)
			}
			for _, dir := range dirs {
				for _, g := range globs {
					exes, _ := sys.Glob(joinOS(sys.GOOS, dir, g))
					sort.Strings(exes)
					for _, exe := range exes {
						list = append(list, candidate{
							Type: e.typ, Path: exe, Name: e.name, Source: root.source,
							Channel: e.channel(baseName(sys.GOOS, dir)), shell: e.shell,
						})
					}
				}
			}
		}
	}
	return list
}

// buildOf is the version or revision at the end of a cache directory's name:
// "stable-131.0.6778.85", "linux-131.0.6778.85", "chromium-1148",
// "linux-stable_129.0" (Puppeteer's Firefox builds name their channel).
func buildOf(goos, dir string) string {
	name := baseName(goos, dir)
	name = name[strings.LastIndex(name, "-")+1:]
	return name[strings.LastIndex(name, "_")+1:]
}

// joinOS joins path elements with the target OS's separator.
func joinOS(goos string, elems ...string) string {
	if goos == "windows" {
		for i := range elems {
			if i < len(elems)-1 {
				elems[i] = strings.TrimRight(elems[i], `\/`)
			}
		}
		return strings.Join(elems, `\`)
	}
	return path.Join(elems...)
}

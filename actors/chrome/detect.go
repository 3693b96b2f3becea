package chrome

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/chrome/wsl"
)

// BrowserType is a browser product: the Chromium family, or Firefox.
type BrowserType string

const (
	Chrome   BrowserType = "chrome"
	Edge     BrowserType = "edge"
	Chromium BrowserType = "chromium"
	Brave    BrowserType = "brave"
	Firefox  BrowserType = "firefox" // Firefox, ESR, Developer Edition and Nightly: channels of one type
)

// BrowserTypes lists every type in preference order: Detect and Resolve("")
// favour the first ones installed. Firefox comes last: it speaks WebDriver
// BiDi, not CDP, so it is never the default.
var BrowserTypes = []BrowserType{Chrome, Edge, Chromium, Brave, Firefox}

// browserNames are the product names shown to users.
var browserNames = map[BrowserType]string{
	Chrome:   "Google Chrome",
	Edge:     "Microsoft Edge",
	Chromium: "Chromium",
	Brave:    "Brave",
	Firefox:  "Firefox",
}

// Browser is one installed browser executable.
type Browser struct {
	Name    string      `json:"name"`
	Type    BrowserType `json:"type"`
	Path    string      `json:"path"`
	Version string      `json:"version,omitempty"`
	// Channel is the release channel (stable, beta, dev, canary; snapshot
	// for Chromium snapshot builds), "" when unknown.
	Channel string `json:"channel,omitempty"`
	// Source says how it was found: system, path, cdpvisor, playwright,
	// puppeteer or user (see the Source constants).
	Source string `json:"source,omitempty"`
	// Windows marks a Windows browser seen from WSL: Path is where the drive
	// mount shows it (/mnt/c/…/chrome.exe); it is started and stopped
	// through powershell.exe.
	Windows bool `json:"windows,omitempty"`
}

// System is what detection reads of the machine, so tests can fake
// macOS, Windows or Linux on any host. Nil funcs behave as "nothing there".
type System struct {
	GOOS     string
	Getenv   func(string) string
	Exists   func(path string) bool // a regular executable file is there (symlinks followed)
	Glob     func(pattern string) ([]string, error)
	LookPath func(name string) (string, error)
	// EvalSymlinks, when set, lets Detect drop a second path of the same
	// type that is a symlink to an already found file.
	EvalSymlinks func(path string) (string, error)
	// ReadFile reads a small file (a Firefox's application.ini, a launcher
	// script, /proc/version, /etc/wsl.conf): Detect tells two launchers of
	// one Firefox apart by it, ReadVersion reads Firefox's version without
	// running it, and WSL is recognised by it.
	ReadFile func(path string) ([]byte, error)
	HomeDir  string
	// Root, when set, is prepended to the fixed system locations (/usr/bin,
	// /opt, /Applications; under WSL /proc, /etc/wsl.conf and the drive
	// mounts), as if the machine's file system started there: a test or a
	// by-hand check hides the installed browsers with it.
	Root string
	// IsDir says a directory exists (WSL detection, the drive mounts).
	IsDir func(path string) bool
	// PreferWindows (--windows, CDPVISOR_WINDOWS=1) makes Resolve pick
	// only Windows browsers under WSL; otherwise a Linux install of a type
	// comes before the Windows one.
	PreferWindows bool
	// WindowsLocalAppData, when set, asks Windows for the user's
	// LocalAppData (C:\Users\<name>\AppData\Local), for when the drive mount
	// holds several users.
	WindowsLocalAppData func() (string, error)
}

// withDefaults replaces nil funcs so a partly filled System cannot panic.
func (sys System) withDefaults() System {
	if sys.Getenv == nil {
		sys.Getenv = func(string) string { return "" }
	}
	if sys.Exists == nil {
		sys.Exists = func(string) bool { return false }
	}
	if sys.Glob == nil {
		sys.Glob = func(string) ([]string, error) { return nil, nil }
	}
	if sys.ReadFile == nil {
		sys.ReadFile = func(p string) ([]byte, error) { return nil, fs.ErrNotExist }
	}
	if sys.IsDir == nil {
		sys.IsDir = func(string) bool { return false }
	}
	if sys.LookPath == nil {
		sys.LookPath = func(name string) (string, error) {
			return "", fmt.Errorf("look up %q: no PATH lookup available", name)
		}
	}
	return sys
}

// Detect lists the installed browsers in preference order (see
// BrowserTypes), without duplicates and without versions.
func Detect(sys System) []Browser {
	sys = sys.withDefaults()
	var found []Browser
	seenPath := map[string]bool{}
	seenTarget := map[string]bool{} // type + resolved path
	installs := firefoxInstalls{}
	for _, c := range candidates(sys) {
		p := c.Path
		if c.viaPATH {
			lp, err := sys.LookPath(c.Path)
			if err != nil || lp == "" {
				continue
			}
			p = lp
		}
		if !sys.Exists(p) {
			continue
		}
		key := pathKey(sys.GOOS, p)
		if seenPath[key] {
			continue
		}
		seenPath[key] = true
		// Same type and same real file (e.g. /usr/bin/google-chrome ->
		// google-chrome-stable) is one install. Different types may share a
		// target (snap's /snap/bin/* -> /usr/bin/snap), so keep those.
		if sys.EvalSymlinks != nil {
			if real, err := sys.EvalSymlinks(p); err == nil {
				tk := string(c.Type) + "\x00" + pathKey(sys.GOOS, real)
				if seenTarget[tk] {
					continue
				}
				seenTarget[tk] = true
			}
		}
		b := Browser{Name: c.Name, Type: c.Type, Path: p, Channel: c.Channel, Source: c.Source, Windows: c.Windows}
		if c.Type == Firefox && installs.seen(sys, c, &b, found) {
			continue
		}
		found = append(found, b)
	}
	return found
}

// DetectWithVersions is Detect with Version filled in where it can be read
// safely; a browser whose version cannot be read is still listed.
func DetectWithVersions(ctx context.Context, sys System) []Browser {
	sys = sys.withDefaults()
	browsers := Detect(sys)
	var wg sync.WaitGroup
	for i := range browsers {
		wg.Go(func() {
			if v, err := ReadVersion(ctx, sys, browsers[i]); err == nil {
				browsers[i].Version = v
				if browsers[i].Type == Firefox && strings.HasSuffix(v, "esr") {
					// Debian's /usr/bin/firefox runs firefox-esr; on macOS
					// and Windows ESR installs where the release does.
					browsers[i].Channel, browsers[i].Name = ChannelESR, firefoxProductName(ChannelESR)
				}
			}
		})
	}
	wg.Wait()
	return browsers
}

// Resolve picks the browser to launch for a --browser value: "" for the
// preferred installed Chromium-family one (the default endpoint speaks
// CDP), a BrowserType name (any case) for the preferred
// install of that type, a path to an executable, or a command name looked
// up on $PATH (google-chrome-beta, chromium-browser, microsoft-edge).
func Resolve(sys System, want string) (Browser, error) {
	sys = sys.withDefaults()
	want = strings.TrimSpace(want)
	if want == "" {
		for _, b := range Detect(sys) {
			if b.Protocol() == ProtocolCDP && b.Windows == sys.PreferWindows {
				return b, nil
			}
		}
		if !sys.PreferWindows {
			for _, b := range Detect(sys) { // under WSL, a Windows one will do
				if b.Protocol() == ProtocolCDP {
					return b, nil
				}
			}
		}
		return Browser{}, &NotFoundError{GOOS: sys.GOOS, Searched: searchedPlaces(sys), Windows: sys.PreferWindows}
	}
	if t, ok := parseBrowserType(want); ok {
		found := Detect(sys)
		for _, b := range found {
			if b.Type == t && b.Windows == sys.PreferWindows {
				return b, nil
			}
		}
		for _, b := range found {
			if b.Type == t && !sys.PreferWindows {
				return b, nil
			}
		}
		return Browser{}, &NotFoundError{Want: string(t), Found: found, GOOS: sys.GOOS, Searched: searchedPlaces(sys), Windows: sys.PreferWindows}
	}
	if sys.GOOS == "linux" && wsl.IsWindowsPath(want) {
		p, err := WSLMounts(sys).ToLinux(want)
		if err != nil {
			return Browser{}, fmt.Errorf("--browser %s: %w", want, err)
		}
		return resolvePath(sys, p)
	}
	if hasPathSeparator(sys.GOOS, want) || sys.Exists(want) {
		return resolvePath(sys, want)
	}
	if undrivable(want) {
		// On PATH or not: launched as Chromium it would only fail later.
		return Browser{}, fmt.Errorf("unknown browser %q: cdpvisor drives the Chromium family over CDP and Firefox over WebDriver BiDi; want one of %s, a command such as google-chrome or firefox-esr, or a path to a browser executable",
			want, typeList())
	}
	if p, err := sys.LookPath(want); err == nil && p != "" {
		b, err := resolvePath(sys, p)
		if err != nil || b.Source != SourceUser {
			return b, err
		}
		b.Source = SourcePATH
		for _, c := range candidates(sys) {
			if c.viaPATH && c.Path == want { // a command we know: its type and channel
				b.Name, b.Type, b.Channel = c.Name, c.Type, c.Channel
			}
		}
		return b, nil
	}
	return Browser{}, fmt.Errorf("unknown browser %q: not a command on $PATH; want one of %s, a command such as google-chrome, or a path to a browser executable",
		want, typeList())
}

// undrivable reports whether a command name is a browser cdpvisor does not
// drive, which must not be taken from $PATH as if it were Chromium (the
// Firefox commands it knows resolve as Firefox).
func undrivable(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".exe")
	switch name {
	case "iceweasel", "librewolf", "waterfox", "safari", "epiphany", "falkon":
		return true
	}
	return false
}

// resolvePath checks a user-given executable and names it.
func resolvePath(sys System, p string) (Browser, error) {
	if !sys.Exists(p) {
		return Browser{}, fmt.Errorf("browser %q is not an executable file (missing, a directory, or not executable)", p)
	}
	// A bare file name would be looked up in $PATH by exec, and a relative
	// path breaks if the launcher changes directory: make it absolute when
	// sys is this machine.
	if sys.GOOS == runtime.GOOS && !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	for _, c := range candidates(sys) {
		// A known install location keeps its name and channel (Chromium on
		// Windows is also chrome.exe).
		if !c.viaPATH && pathKey(sys.GOOS, c.Path) == pathKey(sys.GOOS, p) {
			return Browser{Name: c.Name, Type: c.Type, Path: p, Channel: c.Channel, Source: c.Source, Windows: c.Windows}, nil
		}
	}
	t := guessType(sys, p)
	// On Linux a .exe can only be a Windows program, run through WSL.
	return Browser{Name: browserNames[t], Type: t, Path: p, Source: SourceUser, Windows: sys.GOOS == "linux" && isExe(p)}, nil
}

// guessType names a user-given executable by its file name.
func guessType(sys System, p string) BrowserType {
	name := strings.ToLower(baseName(sys.GOOS, p))
	switch {
	case strings.Contains(name, "firefox"):
		return Firefox
	case strings.Contains(name, "chromium"):
		return Chromium
	case strings.Contains(name, "edge"):
		return Edge
	case strings.Contains(name, "brave"):
		return Brave
	case strings.Contains(name, "chrome"):
		return Chrome
	}
	return Chromium
}

func parseBrowserType(s string) (BrowserType, bool) {
	for _, t := range BrowserTypes {
		if strings.EqualFold(s, string(t)) {
			return t, true
		}
	}
	return "", false
}

func typeList() string { return strings.Join(TypeNames(), ", ") }

// TypeNames are the browser types' names, in the order --browser prefers them.
func TypeNames() []string {
	names := make([]string, len(BrowserTypes))
	for i, t := range BrowserTypes {
		names[i] = string(t)
	}
	return names
}

func typeRank(t BrowserType) int {
	for i, bt := range BrowserTypes {
		if bt == t {
			return i
		}
	}
	return len(BrowserTypes)
}

// hasPathSeparator uses the target OS's separators: Windows accepts both.
func hasPathSeparator(goos, p string) bool {
	if goos == "windows" {
		return strings.ContainsAny(p, `/\`)
	}
	return strings.Contains(p, "/")
}

// baseName is filepath.Base for the target OS rather than the host.
func baseName(goos, p string) string {
	seps := "/"
	if goos == "windows" {
		seps = `/\`
	}
	p = strings.TrimRight(p, seps)
	if i := strings.LastIndexAny(p, seps); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// dirName is filepath.Dir for the target OS rather than the host.
func dirName(goos, p string) string {
	seps := "/"
	if goos == "windows" {
		seps = `/\`
	}
	if i := strings.LastIndexAny(p, seps); i >= 0 {
		return p[:i]
	}
	return "."
}

// pathKey compares paths the way the target file system does: Windows
// paths are case-insensitive.
func pathKey(goos, p string) string {
	if goos == "windows" {
		return strings.ToLower(strings.ReplaceAll(p, "/", `\`))
	}
	return p
}

// NotFoundError reports that no browser, or none of the wanted type, is
// installed. Detect it with errors.As.
type NotFoundError struct {
	Want     string    // requested type; empty when any browser would do
	Found    []Browser // what is installed instead
	GOOS     string    // for the install hint
	Searched []string  // directories searched, for the message
	Windows  bool      // only a Windows browser would do (--windows)
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	wantName := ""
	if e.Want == "" {
		b.WriteString("no Chromium-family browser found")
	} else {
		wantName = e.Want
		if t, ok := parseBrowserType(e.Want); ok {
			wantName = browserNames[t]
		}
		fmt.Fprintf(&b, "%s (%s) is not installed", wantName, strings.ToLower(e.Want))
	}
	if e.Windows {
		b.WriteString(" on the Windows side (--windows / CDPVISOR_WINDOWS=1 asks for a Windows browser; found none under the WSL drive mount's Program Files or LocalAppData)")
	}
	if len(e.Found) > 0 {
		b.WriteString("; found: ")
		for i, f := range e.Found {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s at %s", f.Type, f.Path)
		}
		fmt.Fprintf(&b, "; use --browser %s", e.Found[0].Type)
		if wantName != "" {
			fmt.Fprintf(&b, ", or install %s", wantName)
		}
		if e.Want == string(Chrome) {
			b.WriteString(" ('cdpvisor install chrome' downloads Chrome for Testing)")
		}
		return b.String()
	}
	if len(e.Searched) > 0 {
		fmt.Fprintf(&b, " (searched %s)", strings.Join(e.Searched, ", "))
	}
	b.WriteString("; ")
	if wantName != "" {
		b.WriteString("install " + wantName)
		if pkg := debianPackages[BrowserType(e.Want)]; pkg != "" && e.GOOS == "linux" {
			b.WriteString(", e.g. on Debian/Ubuntu: apt-get install " + pkg)
		}
	} else {
		b.WriteString(installHint(e.GOOS))
	}
	if e.Want == "" || e.Want == string(Chrome) {
		b.WriteString("; " + installCommandHint)
	}
	b.WriteString("; or pass --browser /path/to/browser")
	return b.String()
}

// debianPackages are the browsers Debian packages itself.
var debianPackages = map[BrowserType]string{Chromium: "chromium", Firefox: "firefox-esr"}

// installHint tells the user what to install on their OS.
func installHint(goos string) string {
	switch goos {
	case "darwin":
		return "install Google Chrome (https://www.google.com/chrome/)"
	case "windows":
		return "install Google Chrome or Microsoft Edge"
	case "linux":
		return "install Chromium, e.g. on Debian/Ubuntu: apt-get install chromium"
	default:
		return "install Chromium or Google Chrome"
	}
}

// installCommandHint offers cdpvisor's own download, which works without
// root on every OS Chrome for Testing is built for.
const installCommandHint = "or run 'cdpvisor install' (Chrome for Testing, into your user cache)"

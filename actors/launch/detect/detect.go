package detect

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// Detect lists the installed browsers in preference order (see
// BrowserTypes), without duplicates and without versions.
func Detect(sys launch.System) []launch.Browser {
	sys = sys.WithDefaults()
	var found []launch.Browser
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
		b := launch.Browser{Name: c.Name, Type: c.Type, Path: p, Channel: c.Channel, Source: c.Source, Windows: c.Windows}
		if c.Type == launch.Firefox && installs.seen(sys, c, &b, found) {
			continue
		}
		found = append(found, b)
	}
	return found
}

// DetectWithVersions is Detect with Version filled in where it can be read
// safely; a browser whose version cannot be read is still listed.
func DetectWithVersions(ctx context.Context, sys launch.System) []launch.Browser {
	sys = sys.WithDefaults()
	browsers := Detect(sys)
	var wg sync.WaitGroup
	for i := range browsers {
		wg.Go(func() {
			if v, err := ReadVersion(ctx, sys, browsers[i]); err == nil {
				browsers[i].Version = v
				if browsers[i].Type == launch.Firefox && strings.HasSuffix(v, "esr") {
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
func Resolve(sys launch.System, want string) (launch.Browser, error) {
	sys = sys.WithDefaults()
	want = strings.TrimSpace(want)
	if want == "" {
		for _, b := range Detect(sys) {
			if b.Protocol() == launch.ProtocolCDP && b.Windows == sys.PreferWindows {
				return b, nil
			}
		}
		if !sys.PreferWindows {
			for _, b := range Detect(sys) { // under WSL, a Windows one will do
				if b.Protocol() == launch.ProtocolCDP {
					return b, nil
				}
			}
		}
		return launch.Browser{}, &NotFoundError{GOOS: sys.GOOS, Searched: searchedPlaces(sys), Windows: sys.PreferWindows}
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
		return launch.Browser{}, &NotFoundError{Want: string(t), Found: found, GOOS: sys.GOOS, Searched: searchedPlaces(sys), Windows: sys.PreferWindows}
	}
	if sys.GOOS == "linux" && wsl.IsWindowsPath(want) {
		p, err := WSLMounts(sys).ToLinux(want)
		if err != nil {
			return launch.Browser{}, fmt.Errorf("browser %s: %w", want, err)
		}
		return resolvePath(sys, p)
	}
	if hasPathSeparator(sys.GOOS, want) || sys.Exists(want) {
		return resolvePath(sys, want)
	}
	if undrivable(want) {
		// On PATH or not: launched as Chromium it would only fail later.
		return launch.Browser{}, fmt.Errorf("unknown browser %q: cdpvisor drives the Chromium family over CDP and Firefox over WebDriver BiDi; want one of %s, a command such as google-chrome or firefox-esr, or a path to a browser executable",
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
	return launch.Browser{}, fmt.Errorf("unknown browser %q: not a command on $PATH; want one of %s, a command such as google-chrome, or a path to a browser executable",
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
func resolvePath(sys launch.System, p string) (launch.Browser, error) {
	if !sys.Exists(p) {
		return launch.Browser{}, fmt.Errorf("browser %q is not an executable file (missing, a directory, or not executable)", p)
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
			return launch.Browser{Name: c.Name, Type: c.Type, Path: p, Channel: c.Channel, Source: c.Source, Windows: c.Windows}, nil
		}
	}
	t := guessType(sys, p)
	// On Linux a .exe can only be a Windows program, run through WSL.
	return launch.Browser{Name: t.Product(), Type: t, Path: p, Source: SourceUser, Windows: sys.GOOS == "linux" && isExe(p)}, nil
}

// guessType names a user-given executable by its file name.
func guessType(sys launch.System, p string) launch.Type {
	name := strings.ToLower(baseName(sys.GOOS, p))
	switch {
	case strings.Contains(name, "firefox"):
		return launch.Firefox
	case strings.Contains(name, "chromium"):
		return launch.Chromium
	case strings.Contains(name, "edge"):
		return launch.Edge
	case strings.Contains(name, "brave"):
		return launch.Brave
	case strings.Contains(name, "chrome"):
		return launch.Chrome
	}
	return launch.Chromium
}

func parseBrowserType(s string) (launch.Type, bool) {
	for _, t := range launch.Types {
		if strings.EqualFold(s, string(t)) {
			return t, true
		}
	}
	return "", false
}

func typeList() string { return strings.Join(TypeNames(), ", ") }

// TypeNames are the browser types' names, in the order --browser prefers them.
func TypeNames() []string {
	names := make([]string, len(launch.Types))
	for i, t := range launch.Types {
		names[i] = string(t)
	}
	return names
}

func typeRank(t launch.Type) int {
	for i, bt := range launch.Types {
		if bt == t {
			return i
		}
	}
	return len(launch.Types)
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
	Want     string           // requested type; empty when any browser would do
	Found    []launch.Browser // what is installed instead
	GOOS     string           // for the install hint
	Searched []string         // directories searched, for the message
	Windows  bool             // only a Windows browser would do (--windows)
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	wantName := ""
	if e.Want == "" {
		b.WriteString("no Chromium-family browser found")
	} else {
		wantName = e.Want
		if t, ok := parseBrowserType(e.Want); ok {
			wantName = t.Product()
		}
		fmt.Fprintf(&b, "%s (%s) is not installed", wantName, strings.ToLower(e.Want))
	}
	if e.Windows {
		b.WriteString(" on the Windows side (this coordinator was asked for Windows browsers; found none under the WSL drive mount's Program Files or LocalAppData)")
	}
	if len(e.Found) > 0 {
		b.WriteString("; found: ")
		for i, f := range e.Found {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s at %s", f.Type, f.Path)
		}
		return b.String()
	}
	if len(e.Searched) > 0 {
		fmt.Fprintf(&b, " (searched %s)", strings.Join(e.Searched, ", "))
	}
	return b.String()
}

// Remedies: a browser that is installed, installing one, or a path.
func (e *NotFoundError) Remedies() []remedy.Fix {
	wantName := e.Want
	if t, ok := parseBrowserType(e.Want); ok {
		wantName = t.Product()
	}
	if len(e.Found) > 0 {
		fixes := []remedy.Fix{remedy.Set(remedy.Browser, string(e.Found[0].Type))}
		if wantName != "" {
			install := "install " + wantName
			if e.Want == string(launch.Chrome) {
				install += " ('cdpvisor install chrome' downloads Chrome for Testing)"
			}
			fixes = append(fixes, remedy.Say(install))
		}
		return fixes
	}
	install := installHint(e.GOOS)
	if wantName != "" {
		install = "install " + wantName
		if pkg := debianPackages[launch.Type(e.Want)]; pkg != "" && e.GOOS == "linux" {
			install += ", e.g. on Debian/Ubuntu: apt-get install " + pkg
		}
	}
	fixes := []remedy.Fix{remedy.Say(install)}
	if e.Want == "" || e.Want == string(launch.Chrome) {
		fixes = append(fixes, remedy.Say(installCommandHint))
	}
	return append(fixes, remedy.Fix{Do: remedy.GivePath, Setting: remedy.Browser, Value: "the path of a browser executable"})
}

// debianPackages are the browsers Debian packages itself.
var debianPackages = map[launch.Type]string{launch.Chromium: "chromium", launch.Firefox: "firefox-esr"}

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
const installCommandHint = "run 'cdpvisor install' (Chrome for Testing, into your user cache)"

package detect

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// fakeMachine describes a machine for fakeSystem.
type fakeMachine struct {
	goos  string
	files []string          // executable files
	dirs  []string          // other entries, visible to Glob only
	env   map[string]string // environment
	path  map[string]string // command name -> LookPath result
	links map[string]string // path -> symlink target
	text  map[string]string // path -> content, for ReadFile (application.ini, launcher scripts)
	home  string
	root  string // System.Root
}

// fakeSystem builds a System over m, using m.goos's path separators.
func fakeSystem(m fakeMachine) launch.System {
	files := map[string]bool{}
	for _, f := range m.files {
		files[pathKey(m.goos, f)] = true // Windows: case-insensitive
	}
	sep := "/"
	if m.goos == "windows" {
		sep = `\`
	}
	return launch.System{
		GOOS:   m.goos,
		Getenv: func(k string) string { return m.env[k] },
		Exists: func(p string) bool {
			if t, ok := m.links[p]; ok {
				p = t
			}
			return files[pathKey(m.goos, p)]
		},
		Glob: func(pattern string) ([]string, error) {
			// Whole-pattern matching, so wildcards may sit in any element;
			// directories are the given ones plus every file's parents.
			slash := func(p string) string {
				if m.goos == "windows" {
					return strings.ReplaceAll(p, `\`, "/")
				}
				return p
			}
			entries := map[string]bool{}
			for _, d := range m.dirs {
				entries[d] = true
			}
			for _, f := range m.files {
				for p := f; ; {
					entries[p] = true
					i := strings.LastIndex(p, sep)
					if i <= 0 {
						break
					}
					p = p[:i]
				}
			}
			var out []string
			for e := range entries {
				if ok, _ := path.Match(slash(pattern), slash(e)); ok {
					out = append(out, e)
				}
			}
			sort.Strings(out)
			return out, nil
		},
		LookPath: func(name string) (string, error) {
			if p, ok := m.path[name]; ok {
				return p, nil
			}
			return "", errors.New("not in PATH")
		},
		EvalSymlinks: func(p string) (string, error) {
			if t, ok := m.links[p]; ok {
				return t, nil
			}
			return p, nil
		},
		ReadFile: func(p string) ([]byte, error) {
			if t, ok := m.links[p]; ok {
				p = t
			}
			for k, v := range m.text {
				if pathKey(m.goos, k) == pathKey(m.goos, p) {
					return []byte(v), nil
				}
			}
			return nil, fs.ErrNotExist
		},
		HomeDir: m.home,
		Root:    m.root,
	}
}

func TestDetect(t *testing.T) {
	const (
		pf    = `C:\Program Files`
		pf86  = `C:\Program Files (x86)`
		local = `C:\Users\ann\AppData\Local`
	)
	tests := []struct {
		name string
		m    fakeMachine
		want []launch.Browser
	}{
		{
			name: "linux nothing installed",
			m:    fakeMachine{goos: "linux"},
		},
		{
			name: "linux preference order and duplicate paths",
			m: fakeMachine{
				goos: "linux",
				files: []string{
					"/usr/bin/brave-browser", "/usr/bin/chromium", "/usr/bin/chromium-browser",
					"/usr/bin/microsoft-edge", "/opt/google/chrome/chrome",
				},
				// PATH finds files already listed: no duplicates.
				path: map[string]string{"chromium": "/usr/bin/chromium", "brave-browser": "/usr/bin/brave-browser"},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: "/opt/google/chrome/chrome", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Microsoft Edge", Type: launch.Edge, Path: "/usr/bin/microsoft-edge", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium-browser", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Brave", Type: launch.Brave, Path: "/usr/bin/brave-browser", Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "linux symlinks to the same file of a type are one install",
			m: fakeMachine{
				goos:  "linux",
				files: []string{"/usr/lib/chromium/chromium", "/opt/google/chrome/google-chrome", "/usr/bin/snap"},
				links: map[string]string{
					"/usr/bin/chromium":             "/usr/lib/chromium/chromium",
					"/usr/bin/chromium-browser":     "/usr/lib/chromium/chromium",
					"/usr/bin/google-chrome":        "/opt/google/chrome/google-chrome",
					"/usr/bin/google-chrome-stable": "/opt/google/chrome/google-chrome",
					// snap's multi-call binary: a different type sharing a
					// target is still a separate browser.
					"/snap/bin/chromium": "/usr/bin/snap",
				},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: "/usr/bin/google-chrome", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/snap/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "linux PATH fallback",
			m: fakeMachine{
				goos:  "linux",
				files: []string{"/usr/bin/chromium", "/home/ann/.nix-profile/bin/google-chrome-stable", "/usr/local/bin/brave-browser"},
				path: map[string]string{
					"google-chrome-stable": "/home/ann/.nix-profile/bin/google-chrome-stable",
					"chromium":             "/usr/bin/chromium",
					"brave-browser":        "/usr/local/bin/brave-browser",
					"microsoft-edge":       "/gone/microsoft-edge", // stale: not a file
				},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: "/home/ann/.nix-profile/bin/google-chrome-stable", Channel: ChannelStable, Source: SourcePATH},
				{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Brave", Type: launch.Brave, Path: "/usr/local/bin/brave-browser", Channel: ChannelStable, Source: SourcePATH},
			},
		},
		{
			name: "macOS /Applications and ~/Applications",
			m: fakeMachine{
				goos: "darwin",
				home: "/Users/ann",
				files: []string{
					"/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
					"/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
					"/Applications/Chromium.app/Contents/MacOS/Chromium",
					"/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium",
					"/usr/bin/chromium", // Linux paths mean nothing on macOS
				},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: "/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/Applications/Chromium.app/Contents/MacOS/Chromium", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: "/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium", Channel: ChannelStable, Source: SourceSystem},
				{Name: "Brave", Type: launch.Brave, Path: "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser", Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "macOS without home directory",
			m: fakeMachine{
				goos:  "darwin",
				files: []string{"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
			},
			want: []launch.Browser{
				{Name: "Microsoft Edge", Type: launch.Edge, Path: "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge", Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "windows env var roots",
			m: fakeMachine{
				goos: "windows",
				env:  map[string]string{"PROGRAMFILES": pf, "PROGRAMFILES(X86)": pf86, "LOCALAPPDATA": local + `\`},
				files: []string{
					pf86 + `\Microsoft\Edge\Application\msedge.exe`,
					local + `\Google\Chrome\Application\chrome.exe`,
					pf + `\Google\Chrome\Application\chrome.exe`,
					local + `\Chromium\Application\chrome.exe`,
					pf + `\BraveSoftware\Brave-Browser\Application\brave.exe`,
				},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: pf + `\Google\Chrome\Application\chrome.exe`, Channel: ChannelStable, Source: SourceSystem},
				{Name: "Google Chrome", Type: launch.Chrome, Path: local + `\Google\Chrome\Application\chrome.exe`, Channel: ChannelStable, Source: SourceSystem},
				{Name: "Microsoft Edge", Type: launch.Edge, Path: pf86 + `\Microsoft\Edge\Application\msedge.exe`, Channel: ChannelStable, Source: SourceSystem},
				{Name: "Chromium", Type: launch.Chromium, Path: local + `\Chromium\Application\chrome.exe`, Source: SourceSystem},
				{Name: "Brave", Type: launch.Brave, Path: pf + `\BraveSoftware\Brave-Browser\Application\brave.exe`, Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "windows missing env vars are skipped",
			m: fakeMachine{
				goos: "windows",
				env:  map[string]string{"PROGRAMFILES(X86)": pf86},
				files: []string{
					pf86 + `\Microsoft\Edge\Application\msedge.exe`,
					`\Google\Chrome\Application\chrome.exe`, // what an empty root would produce
				},
			},
			want: []launch.Browser{
				{Name: "Microsoft Edge", Type: launch.Edge, Path: pf86 + `\Microsoft\Edge\Application\msedge.exe`, Channel: ChannelStable, Source: SourceSystem},
			},
		},
		{
			name: "windows same directory in two env vars",
			m: fakeMachine{
				goos:  "windows",
				env:   map[string]string{"PROGRAMFILES": pf86, "PROGRAMFILES(X86)": pf86},
				files: []string{pf86 + `\Google\Chrome\Application\chrome.exe`},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: pf86 + `\Google\Chrome\Application\chrome.exe`, Channel: ChannelStable, Source: SourceSystem},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(fakeSystem(tt.m))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Detect() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestDetectZeroSystem(t *testing.T) {
	if got := Detect(launch.System{}); len(got) != 0 {
		t.Errorf("Detect(System{}) = %v, want none", got)
	}
}

func TestResolve(t *testing.T) {
	linux := fakeMachine{
		goos:  "linux",
		files: []string{"/usr/bin/chromium", "/usr/bin/brave-browser", "/opt/custom/my-edge-build", "/opt/custom/thing"},
	}
	windows := fakeMachine{
		goos:  "windows",
		env:   map[string]string{"LOCALAPPDATA": `C:\Users\ann\AppData\Local`},
		files: []string{`C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`, `D:\portable\chrome.exe`},
	}
	tests := []struct {
		name     string
		m        fakeMachine
		want     string
		browser  launch.Browser
		notFound bool     // error is a *NotFoundError
		errHas   []string // error text must contain each
	}{
		{
			name:    "empty picks preferred",
			m:       linux,
			browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
		},
		{
			name:    "by type, any case",
			m:       linux,
			want:    " Brave ",
			browser: launch.Browser{Name: "Brave", Type: launch.Brave, Path: "/usr/bin/brave-browser", Channel: ChannelStable, Source: SourceSystem},
		},
		{
			name:     "missing type lists what was found",
			m:        linux,
			want:     "chrome",
			notFound: true,
			errHas:   []string{"Google Chrome (chrome) is not installed", "chromium at /usr/bin/chromium", "brave at /usr/bin/brave-browser"},
		},
		{
			name:     "missing type with nothing installed",
			m:        fakeMachine{goos: "linux"},
			want:     "EDGE",
			notFound: true,
			errHas:   []string{"Microsoft Edge (edge) is not installed", "/usr/bin", "install Microsoft Edge"},
		},
		{
			name:     "nothing installed on linux names the package",
			m:        fakeMachine{goos: "linux"},
			notFound: true,
			errHas:   []string{"no Chromium-family browser found", "/opt/google/chrome", "$PATH", "apt-get install chromium"},
		},
		{
			name:     "nothing installed on macOS",
			m:        fakeMachine{goos: "darwin", home: "/Users/ann"},
			notFound: true,
			errHas:   []string{"no Chromium-family browser found", "/Applications, /Users/ann/Applications", "install Google Chrome"},
		},
		{
			name:     "nothing installed on windows",
			m:        fakeMachine{goos: "windows", env: map[string]string{"PROGRAMFILES": `C:\Program Files`}},
			notFound: true,
			errHas:   []string{"no Chromium-family browser found", `C:\Program Files`, "install Google Chrome or Microsoft Edge"},
		},
		{
			name:    "path guesses type from file name",
			m:       linux,
			want:    "/opt/custom/my-edge-build",
			browser: launch.Browser{Name: "Microsoft Edge", Type: launch.Edge, Path: "/opt/custom/my-edge-build", Source: SourceUser},
		},
		{
			name:    "path defaults to chromium",
			m:       linux,
			want:    "/opt/custom/thing",
			browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: "/opt/custom/thing", Source: SourceUser},
		},
		{
			name:   "path that does not exist",
			m:      linux,
			want:   "/opt/custom/nope",
			errHas: []string{`"/opt/custom/nope" is not an executable file`},
		},
		{
			name:    "windows known location keeps its type",
			m:       windows,
			want:    `c:\users\ann\appdata\local\chromium\application\chrome.exe`,
			browser: launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: `c:\users\ann\appdata\local\chromium\application\chrome.exe`, Source: SourceSystem},
		},
		{
			name:    "windows portable chrome.exe",
			m:       windows,
			want:    `D:\portable\chrome.exe`,
			browser: launch.Browser{Name: "Google Chrome", Type: launch.Chrome, Path: `D:\portable\chrome.exe`, Source: SourceUser},
		},
		{
			name:   "unknown word lists valid types",
			m:      linux,
			want:   "opera",
			errHas: []string{`unknown browser "opera"`, "chrome, edge, chromium, brave, firefox"},
		},
		{
			name:   "a browser cdpvisor cannot drive is refused even on PATH",
			m:      linux,
			want:   "librewolf",
			errHas: []string{`unknown browser "librewolf"`, "Firefox over WebDriver BiDi"},
		},
		{
			name:    "a Firefox command on PATH resolves as Firefox",
			m:       fakeMachine{goos: "linux", files: []string{"/home/u/bin/firefox-esr"}, path: map[string]string{"firefox-esr": "/home/u/bin/firefox-esr"}},
			want:    "firefox-esr",
			browser: launch.Browser{Name: "Firefox ESR", Type: launch.Firefox, Path: "/home/u/bin/firefox-esr", Channel: ChannelESR, Source: SourcePATH},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := fakeSystem(tt.m)
			if tt.name == "a browser cdpvisor cannot drive is refused even on PATH" {
				sys.LookPath = func(name string) (string, error) { return "/usr/bin/" + name, nil }
			}
			got, err := Resolve(sys, tt.want)
			if tt.errHas == nil {
				if err != nil {
					t.Fatalf("Resolve(%q) error: %v", tt.want, err)
				}
				if got != tt.browser {
					t.Errorf("Resolve(%q) = %+v, want %+v", tt.want, got, tt.browser)
				}
				return
			}
			if err == nil {
				t.Fatalf("Resolve(%q) = %+v, want error", tt.want, got)
			}
			var nf *NotFoundError
			if errors.As(err, &nf) != tt.notFound {
				t.Errorf("errors.As(*NotFoundError) = %v, want %v (err: %v)", !tt.notFound, tt.notFound, err)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(remedy.Explain(err, remedy.Plain), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

func TestResolveRelativePathBecomesAbsolute(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "chromium-dev", "exit 0")
	t.Chdir(dir)
	b, err := Resolve(HostSystem(), "./chromium-dev")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "chromium-dev"); b.Path != want || b.Type != launch.Chromium {
		t.Errorf("Resolve = %+v, want chromium at %s", b, want)
	}
}

package detect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

func TestDetectFirefox(t *testing.T) {
	const (
		pf    = `C:\Program Files`
		local = `C:\Users\ann\AppData\Local`
	)
	ff := func(name, path, channel, source string) launch.Browser {
		return launch.Browser{Name: name, Type: launch.Firefox, Path: path, Channel: channel, Source: source}
	}
	tests := []struct {
		name string
		m    fakeMachine
		want []launch.Browser
	}{
		{
			name: "debian firefox-esr: the wrapper, not the binary behind it, after chromium",
			m: fakeMachine{
				goos:  "linux",
				files: []string{"/usr/bin/firefox-esr", "/usr/lib/firefox-esr/firefox-esr", "/usr/bin/chromium"},
				path:  map[string]string{"firefox-esr": "/usr/bin/firefox-esr"},
			},
			want: []launch.Browser{
				{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
				ff("Firefox ESR", "/usr/bin/firefox-esr", ChannelESR, SourceSystem),
			},
		},
		{
			name: "linux channels in order: stable, ESR, Developer Edition, Nightly",
			m: fakeMachine{
				goos: "linux",
				files: []string{
					"/usr/lib/firefox-nightly/firefox", "/usr/bin/firefox-devedition",
					"/opt/firefox/firefox", "/usr/bin/firefox-esr",
				},
				links: map[string]string{"/usr/bin/firefox-nightly": "/usr/lib/firefox-nightly/firefox"},
			},
			want: []launch.Browser{
				ff("Firefox", "/opt/firefox/firefox", ChannelStable, SourceSystem),
				ff("Firefox ESR", "/usr/bin/firefox-esr", ChannelESR, SourceSystem),
				ff("Firefox Developer Edition", "/usr/bin/firefox-devedition", ChannelDevEd, SourceSystem),
				ff("Firefox Nightly", "/usr/bin/firefox-nightly", ChannelNightly, SourceSystem),
			},
		},
		{
			name: "linux firefox on PATH only",
			m: fakeMachine{
				goos:  "linux",
				files: []string{"/home/ann/.nix-profile/bin/firefox", "/usr/local/bin/firefox-developer-edition"},
				path: map[string]string{
					"firefox":                   "/home/ann/.nix-profile/bin/firefox",
					"firefox-developer-edition": "/usr/local/bin/firefox-developer-edition",
				},
			},
			want: []launch.Browser{
				ff("Firefox", "/home/ann/.nix-profile/bin/firefox", ChannelStable, SourcePATH),
				ff("Firefox Developer Edition", "/usr/local/bin/firefox-developer-edition", ChannelDevEd, SourcePATH),
			},
		},
		{
			name: "linux detection root hides the machine's firefox",
			m: fakeMachine{
				goos:  "linux",
				root:  "/tmp/fake",
				files: []string{"/usr/bin/firefox", "/tmp/fake/usr/bin/firefox-esr"},
			},
			want: []launch.Browser{ff("Firefox ESR", "/tmp/fake/usr/bin/firefox-esr", ChannelESR, SourceSystem)},
		},
		{
			name: "macOS bundles",
			m: fakeMachine{
				goos: "darwin",
				home: "/Users/ann",
				files: []string{
					"/Applications/Firefox Nightly.app/Contents/MacOS/firefox",
					"/Applications/Firefox.app/Contents/MacOS/firefox",
					"/Users/ann/Applications/Firefox Developer Edition.app/Contents/MacOS/firefox",
				},
			},
			want: []launch.Browser{
				ff("Firefox", "/Applications/Firefox.app/Contents/MacOS/firefox", ChannelStable, SourceSystem),
				ff("Firefox Developer Edition", "/Users/ann/Applications/Firefox Developer Edition.app/Contents/MacOS/firefox", ChannelDevEd, SourceSystem),
				ff("Firefox Nightly", "/Applications/Firefox Nightly.app/Contents/MacOS/firefox", ChannelNightly, SourceSystem),
			},
		},
		{
			name: "windows system and per-user installs",
			m: fakeMachine{
				goos: "windows",
				env:  map[string]string{"PROGRAMFILES": pf, "LOCALAPPDATA": local},
				files: []string{
					local + `\Firefox Nightly\firefox.exe`,
					pf + `\Firefox Developer Edition\firefox.exe`,
					pf + `\Mozilla Firefox\firefox.exe`,
					pf + `\Google\Chrome\Application\chrome.exe`,
				},
			},
			want: []launch.Browser{
				{Name: "Google Chrome", Type: launch.Chrome, Path: pf + `\Google\Chrome\Application\chrome.exe`, Channel: ChannelStable, Source: SourceSystem},
				ff("Firefox", pf+`\Mozilla Firefox\firefox.exe`, ChannelStable, SourceSystem),
				ff("Firefox Developer Edition", pf+`\Firefox Developer Edition\firefox.exe`, ChannelDevEd, SourceSystem),
				ff("Firefox Nightly", local+`\Firefox Nightly\firefox.exe`, ChannelNightly, SourceSystem),
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

func TestResolveFirefox(t *testing.T) {
	onlyFirefox := fakeMachine{
		goos:  "linux",
		files: []string{"/usr/bin/firefox-esr", "/opt/builds/firefox-153/firefox"},
		path:  map[string]string{"firefox-esr": "/usr/bin/firefox-esr"},
	}
	sys := fakeSystem(onlyFirefox)
	if b, err := Resolve(sys, "Firefox"); err != nil || b.Path != "/usr/bin/firefox-esr" || b.Channel != ChannelESR {
		t.Errorf(`Resolve("Firefox") = %+v, %v; want the ESR`, b, err)
	}
	if b, err := Resolve(sys, "firefox-esr"); err != nil || b.Type != launch.Firefox || b.Name != "Firefox ESR" {
		t.Errorf(`Resolve("firefox-esr") = %+v, %v; want Firefox ESR`, b, err)
	}
	if b, err := Resolve(sys, "/opt/builds/firefox-153/firefox"); err != nil || b.Type != launch.Firefox || b.Source != SourceUser || b.Name != "Firefox" {
		t.Errorf("Resolve(a firefox path) = %+v, %v; want a user Firefox", b, err)
	}
	// The default endpoint speaks CDP: Firefox is never picked for "".
	_, err := Resolve(sys, "")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "no Chromium-family browser found") {
		t.Errorf(`Resolve("") with only Firefox: %v; want no Chromium-family browser`, err)
	}
	_, err = Resolve(fakeSystem(fakeMachine{goos: "linux", files: []string{"/usr/bin/chromium"}}), "firefox")
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "Firefox (firefox) is not installed") || !strings.Contains(err.Error(), "chromium at /usr/bin/chromium") {
		t.Errorf(`Resolve("firefox") without Firefox: %v`, err)
	}
}

func TestBrowserProtocol(t *testing.T) {
	for _, typ := range launch.Types {
		want := launch.ProtocolCDP
		if typ == launch.Firefox {
			want = launch.ProtocolBiDi
		}
		if got := (launch.Browser{Type: typ}).Protocol(); got != want {
			t.Errorf("%s speaks %s, want %s", typ, got, want)
		}
	}
}

func TestRequireCDP(t *testing.T) {
	if err := launch.RequireCDP(launch.Browser{Type: launch.Chromium, Path: "/usr/bin/chromium"}); err != nil {
		t.Errorf("chromium refused: %v", err)
	}
	err := launch.RequireCDP(launch.Browser{Name: "Firefox ESR", Type: launch.Firefox, Path: "/usr/bin/firefox-esr"})
	if err == nil {
		t.Fatal("Firefox accepted where CDP is needed")
	}
	for _, want := range []string{"Firefox ESR (/usr/bin/firefox-esr)", "WebDriver BiDi", "chrome, edge, chromium, brave"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "brave, firefox") {
		t.Errorf("%q offers firefox as a CDP browser", err)
	}
}

// Debian's /usr/bin/firefox is a script that runs firefox-esr: the version
// Firefox prints ("153.7.0esr") tells, and the listing says ESR.
func TestDetectWithVersionsNamesFirefoxESRByItsVersion(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	root := t.TempDir()
	t.Setenv(DetectRootEnv, root)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{InstallDirEnv, "PLAYWRIGHT_BROWSERS_PATH", "PUPPETEER_CACHE_DIR", "XDG_CACHE_HOME"} {
		t.Setenv(v, "")
	}
	for dir, version := range map[string]string{"usr/bin": "153.7.0esr", "opt/firefox": "153.0.2"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		writeScript(t, filepath.Join(root, dir), "firefox", "echo 'Mozilla Firefox "+version+"'")
	}
	got := DetectWithVersions(context.Background(), HostSystem())
	want := []launch.Browser{
		{Name: "Firefox ESR", Type: launch.Firefox, Path: filepath.Join(root, "usr/bin/firefox"), Version: "153.7.0esr", Channel: ChannelESR, Source: SourceSystem},
		{Name: "Firefox", Type: launch.Firefox, Path: filepath.Join(root, "opt/firefox/firefox"), Version: "153.0.2", Channel: ChannelStable, Source: SourceSystem},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DetectWithVersions =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(want))
	}
}

package detect

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// appIni is an application.ini as Mozilla's builds carry it.
func appIni(version, repo string) string {
	return "; This file is not used.\n[App]\nVendor=Mozilla\nName=Firefox\nRemotingName=firefox\nVersion=" + version +
		"\nBuildID=20261103151912\nSourceRepository=" + repo + "\n\n[Gecko]\nMinVersion=" + version + "\n"
}

const (
	esrRepo     = "https://hg.mozilla.org/releases/mozilla-esr153"
	releaseRepo = "https://hg.mozilla.org/releases/mozilla-release"
	// debianFirefox is Debian's /usr/bin/firefox: it runs firefox-esr.
	debianFirefox = "#!/bin/sh\n\nFIREFOX=\"$(command -v firefox)\"\n[ -x \"$FIREFOX.real\" ] && exec \"$FIREFOX.real\" \"$@\"\n\nexec firefox-esr \"$@\"\n"
)

// debian is a Debian machine with firefox-esr installed: two launchers
// of one ESR build.
func debian() fakeMachine {
	return fakeMachine{
		goos:  "linux",
		files: []string{"/usr/bin/firefox", "/usr/lib/firefox-esr/firefox-esr", "/usr/bin/chromium"},
		links: map[string]string{"/usr/bin/firefox-esr": "/usr/lib/firefox-esr/firefox-esr"},
		path:  map[string]string{"firefox": "/usr/bin/firefox", "firefox-esr": "/usr/bin/firefox-esr"},
		text: map[string]string{
			"/usr/bin/firefox":                     debianFirefox,
			"/usr/lib/firefox-esr/application.ini": appIni("153.7.0", esrRepo),
		},
	}
}

func TestDetectListsOneFirefoxInstallOnce(t *testing.T) {
	ff := func(name, path, channel, source string) launch.Browser {
		return launch.Browser{Name: name, Type: launch.Firefox, Path: path, Channel: channel, Source: source}
	}
	chromium := launch.Browser{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem}
	other := debian()
	other.files = append(other.files, "/opt/firefox/firefox")
	other.text["/opt/firefox/application.ini"] = appIni("153.7.0", releaseRepo)
	nix := fakeMachine{
		goos:  "linux",
		files: []string{"/home/ann/.nix-profile/bin/firefox", "/nix/store/abc-firefox-unwrapped/lib/firefox/firefox"},
		links: map[string]string{
			"/home/ann/.nix-profile/bin/firefox-devedition": "/home/ann/.nix-profile/bin/firefox",
			"/nix/store/abc-firefox-unwrapped/bin/firefox":  "/nix/store/abc-firefox-unwrapped/lib/firefox/firefox",
		},
		path: map[string]string{"firefox": "/home/ann/.nix-profile/bin/firefox", "firefox-devedition": "/home/ann/.nix-profile/bin/firefox-devedition"},
		text: map[string]string{
			"/home/ann/.nix-profile/bin/firefox":                           "#! /nix/store/x-bash/bin/bash -e\nexport MOZ_LEGACY_PROFILES=1\nexec -a \"$0\" \"/nix/store/abc-firefox-unwrapped/bin/firefox\"  \"$@\"\n",
			"/nix/store/abc-firefox-unwrapped/lib/firefox/application.ini": appIni("153.0.2", releaseRepo),
		},
	}
	tests := []struct {
		name string
		m    fakeMachine
		want []launch.Browser
	}{
		{"debian's firefox script and firefox-esr symlink: one ESR, by the launcher that names it", debian(),
			[]launch.Browser{chromium, ff("Firefox ESR", "/usr/bin/firefox-esr", ChannelESR, SourceSystem)}},
		{"a firefox script alone: ESR by the application.ini of what it runs", func() fakeMachine {
			m := debian()
			delete(m.links, "/usr/bin/firefox-esr")
			m.text["/usr/bin/firefox"] = "#!/bin/sh\nexec /usr/lib/firefox-esr/firefox-esr \"$@\"\n"
			return m
		}(), []launch.Browser{chromium, ff("Firefox ESR", "/usr/bin/firefox", ChannelESR, SourceSystem)}},
		{"another install of the same version stays", other, []launch.Browser{
			chromium,
			ff("Firefox ESR", "/usr/bin/firefox-esr", ChannelESR, SourceSystem),
			ff("Firefox", "/opt/firefox/firefox", ChannelStable, SourceSystem),
		}},
		{"nix wrapper (exec -a) and a second name for it: one", nix,
			[]launch.Browser{ff("Firefox", "/home/ann/.nix-profile/bin/firefox", ChannelStable, SourcePATH)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(fakeSystem(tt.m)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Detect =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(tt.want))
			}
		})
	}
}

func TestLauncherTarget(t *testing.T) {
	m := fakeMachine{goos: "linux", path: map[string]string{"firefox-esr": "/usr/bin/firefox-esr"}, text: map[string]string{
		"/usr/bin/firefox":  debianFirefox,
		"/usr/bin/two":      "#!/bin/sh\nif x; then exec /opt/a/firefox; fi\nexec /opt/b/firefox\n",
		"/usr/bin/same":     "#!/bin/sh\nexec /opt/a/firefox \"$@\"\nexec /opt/a/firefox\n",
		"/usr/bin/variable": "#!/bin/sh\nexec \"$HOME/firefox\" \"$@\"\n",
		"/usr/bin/elf":      "\x7fELF exec /opt/a/firefox\n",
		"/usr/bin/unknown":  "#!/bin/sh\nexec not-on-path\n",
		"/usr/bin/bare":     "#!/bin/sh\nexec -a\n",
	}}
	sys := fakeSystem(m)
	for p, want := range map[string]string{
		"/usr/bin/firefox": "/usr/bin/firefox-esr", "/usr/bin/two": "", "/usr/bin/same": "/opt/a/firefox",
		"/usr/bin/variable": "", "/usr/bin/elf": "", "/usr/bin/unknown": "", "/usr/bin/bare": "", "/usr/bin/missing": "",
	} {
		if got := launcherTarget(sys.WithDefaults(), p); got != want {
			t.Errorf("launcherTarget(%s) = %q, want %q", p, got, want)
		}
	}
}

func TestReadVersionOfFirefoxFromApplicationIni(t *testing.T) {
	const (
		win = `C:\Program Files\Mozilla Firefox`
		mac = "/Applications/Firefox.app/Contents"
	)
	tests := []struct {
		name    string
		m       fakeMachine
		path    string
		want    string
		wantErr bool
	}{
		{"windows, beside firefox.exe", fakeMachine{goos: "windows", files: []string{win + `\firefox.exe`},
			text: map[string]string{win + `\application.ini`: appIni("153.0.2", releaseRepo)}}, win + `\firefox.exe`, "153.0.2", false},
		{"windows ESR by its update channel", fakeMachine{goos: "windows", files: []string{win + `\firefox.exe`},
			text: map[string]string{
				win + `\application.ini`:                appIni("153.7.0", "https://github.com/mozilla-firefox/firefox"),
				win + `\defaults\pref\channel-prefs.js`: `pref("app.update.channel", "esr");`,
			}}, win + `\firefox.exe`, "153.7.0esr", false},
		{"windows without application.ini", fakeMachine{goos: "windows", files: []string{win + `\firefox.exe`}}, win + `\firefox.exe`, "", true},
		{"macOS, in the bundle's Resources", fakeMachine{goos: "darwin", files: []string{mac + "/MacOS/firefox"},
			text: map[string]string{mac + "/Resources/application.ini": appIni("155.0a1", "https://hg.mozilla.org/mozilla-central")}}, mac + "/MacOS/firefox", "155.0a1", false},
		{"debian's script, followed to the ESR build", debian(), "/usr/bin/firefox", "153.7.0esr", false},
		{"not Mozilla's Firefox", fakeMachine{goos: "windows", files: []string{win + `\firefox.exe`},
			text: map[string]string{win + `\application.ini`: "[App]\nName=Thunderbird\nVersion=140.0\n"}}, win + `\firefox.exe`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadVersion(context.Background(), fakeSystem(tt.m), launch.Browser{Type: launch.Firefox, Path: tt.path})
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ReadVersion = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestDetectPuppeteersFirefoxBuilds(t *testing.T) {
	const (
		home  = "/home/ann"
		mhome = "/Users/ann"
		whome = `C:\Users\ann`
	)
	pptr := home + "/.cache/puppeteer/firefox"
	mpptr := mhome + "/.cache/puppeteer/firefox"
	wpptr := whome + `\.cache\puppeteer\firefox`
	ff := func(name, path, channel string) launch.Browser {
		return launch.Browser{Name: name, Type: launch.Firefox, Path: path, Channel: channel, Source: SourcePuppeteer}
	}
	tests := []struct {
		name string
		m    fakeMachine
		want []launch.Browser
	}{
		{"linux: every channel, newest first within one", fakeMachine{goos: "linux", home: home, files: []string{
			pptr + "/linux-stable_129.0/firefox/firefox",
			pptr + "/linux-stable_133.0.3/firefox/firefox",
			pptr + "/linux-esr_128.5.0esr/firefox/firefox",
			pptr + "/linux-devedition_134.0b5/firefox/firefox",
			pptr + "/linux-beta_134.0b9/firefox/firefox",
			pptr + "/linux-nightly_135.0a1/firefox/firefox",
			pptr + "/linux-131.0a1/firefox/firefox", // before channels had names: a Nightly
			pptr + "/linux-stable_132.0/firefox/firefox-bin-missing",
		}}, []launch.Browser{
			ff("Firefox", pptr+"/linux-stable_133.0.3/firefox/firefox", ChannelStable),
			ff("Firefox", pptr+"/linux-stable_129.0/firefox/firefox", ChannelStable),
			ff("Firefox ESR", pptr+"/linux-esr_128.5.0esr/firefox/firefox", ChannelESR),
			ff("Firefox Beta", pptr+"/linux-beta_134.0b9/firefox/firefox", ChannelBeta),
			ff("Firefox Developer Edition", pptr+"/linux-devedition_134.0b5/firefox/firefox", ChannelDevEd),
			ff("Firefox Nightly", pptr+"/linux-nightly_135.0a1/firefox/firefox", ChannelNightly),
			ff("Firefox Nightly", pptr+"/linux-131.0a1/firefox/firefox", ChannelNightly),
		}},
		{"macOS bundles", fakeMachine{goos: "darwin", home: mhome, files: []string{
			mpptr + "/mac_arm-stable_133.0/Firefox.app/Contents/MacOS/firefox",
			mpptr + "/mac_arm-nightly_135.0a1/Firefox Nightly.app/Contents/MacOS/firefox",
		}}, []launch.Browser{
			ff("Firefox", mpptr+"/mac_arm-stable_133.0/Firefox.app/Contents/MacOS/firefox", ChannelStable),
			ff("Firefox Nightly", mpptr+"/mac_arm-nightly_135.0a1/Firefox Nightly.app/Contents/MacOS/firefox", ChannelNightly),
		}},
		{"windows: core\\ for releases, firefox\\ for Nightly", fakeMachine{goos: "windows", home: whome, files: []string{
			wpptr + `\win64-stable_133.0\core\firefox.exe`,
			wpptr + `\win64-nightly_135.0a1\firefox\firefox.exe`,
		}}, []launch.Browser{
			ff("Firefox", wpptr+`\win64-stable_133.0\core\firefox.exe`, ChannelStable),
			ff("Firefox Nightly", wpptr+`\win64-nightly_135.0a1\firefox\firefox.exe`, ChannelNightly),
		}},
		{"PUPPETEER_CACHE_DIR moves it", fakeMachine{goos: "linux", home: home, env: map[string]string{"PUPPETEER_CACHE_DIR": "/pp"},
			files: []string{"/pp/firefox/linux-stable_133.0/firefox/firefox", pptr + "/linux-stable_129.0/firefox/firefox"}},
			[]launch.Browser{ff("Firefox", "/pp/firefox/linux-stable_133.0/firefox/firefox", ChannelStable)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(fakeSystem(tt.m)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Detect =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(tt.want))
			}
		})
	}
	// Resolve("firefox") finds a cached build when nothing else is there.
	only := fakeMachine{goos: "linux", home: home, files: []string{pptr + "/linux-stable_133.0/firefox/firefox"}}
	if b, err := Resolve(fakeSystem(only), "firefox"); err != nil || b.Source != SourcePuppeteer {
		t.Errorf(`Resolve("firefox") = %+v, %v; want the Puppeteer build`, b, err)
	}
}

// On a real file tree: a build unpacked the way Puppeteer does, with its
// application.ini, is listed with its version, which no process was run
// to read (the executable would fail if run).
func TestHostDetectionOfPuppeteersFirefox(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv(DetectRootEnv, filepath.Join(home, "no-system"))
	for _, v := range []string{InstallDirEnv, "PLAYWRIGHT_BROWSERS_PATH", "PUPPETEER_CACHE_DIR"} {
		t.Setenv(v, "")
	}
	plat := map[string]string{"linux": "linux", "darwin": "mac"}[runtime.GOOS]
	rel := filepath.Join(".cache/puppeteer/firefox", plat+"-esr_128.5.0esr", "firefox", "firefox")
	if runtime.GOOS == "darwin" {
		rel = filepath.Join(".cache/puppeteer/firefox", plat+"-esr_128.5.0esr", "Firefox.app/Contents/MacOS/firefox")
	}
	exe := filepath.Join(home, rel)
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Dir(exe), "firefox", "exit 3")
	ini := filepath.Join(filepath.Dir(exe), "application.ini")
	if runtime.GOOS == "darwin" {
		ini = filepath.Join(filepath.Dir(filepath.Dir(exe)), "Resources", "application.ini")
		if err := os.MkdirAll(filepath.Dir(ini), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(ini, []byte(appIni("128.5.0", "https://hg.mozilla.org/releases/mozilla-esr128")), 0o644); err != nil {
		t.Fatal(err)
	}
	got := DetectWithVersions(context.Background(), HostSystem())
	want := []launch.Browser{{Name: "Firefox ESR", Type: launch.Firefox, Path: exe, Version: "128.5.0esr", Channel: ChannelESR, Source: SourcePuppeteer}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DetectWithVersions =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(want))
	}
}

// This machine's Debian firefox-esr, when it is there: `cdpvisor browsers`
// lists it once, as ESR with its version.
func TestHostFirefoxESRListedOnce(t *testing.T) {
	if _, err := os.Stat("/usr/lib/firefox-esr/application.ini"); err != nil {
		if os.Getenv("CI") != "" && runtime.GOOS == "linux" {
			t.Fatalf("CI runs with Debian's firefox-esr (.ci/setup installs it): %v", err)
		}
		t.Skip("Debian's firefox-esr is not installed")
	}
	var esr []launch.Browser
	for _, b := range DetectWithVersions(context.Background(), HostSystem()) {
		if b.Type == launch.Firefox && b.Source == SourceSystem {
			esr = append(esr, b)
		}
	}
	if len(esr) != 1 || esr[0].Channel != ChannelESR || !strings.HasSuffix(esr[0].Version, "esr") {
		t.Fatalf("system Firefox builds: %s; want one ESR with its version", listBrowsers(esr))
	}
}

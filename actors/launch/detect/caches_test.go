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
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

// b builds an expected Browser.
func b(name string, t launch.Type, p, channel, source string) launch.Browser {
	return launch.Browser{Name: name, Type: t, Path: p, Channel: channel, Source: source}
}

func TestDetectChannelsAndCaches(t *testing.T) {
	const (
		home  = "/home/ann"
		ours  = home + "/.cache/cdpvisor/browsers"
		pw    = home + "/.cache/ms-playwright"
		pptr  = home + "/.cache/puppeteer"
		local = `C:\Users\ann\AppData\Local`
		mhome = "/Users/ann"
	)
	tests := []struct {
		name string
		m    fakeMachine
		want []launch.Browser
	}{
		{
			name: "linux channels: stable first, then beta, dev, canary",
			m: fakeMachine{
				goos: "linux",
				files: []string{
					"/opt/google/chrome-canary/chrome", "/usr/bin/google-chrome-beta", "/opt/google/chrome-unstable/chrome",
					"/usr/bin/google-chrome", "/opt/microsoft/msedge-dev/msedge", "/usr/bin/microsoft-edge-beta",
					"/opt/brave.com/brave-nightly/brave",
				},
			},
			want: []launch.Browser{
				b("Google Chrome", launch.Chrome, "/usr/bin/google-chrome", ChannelStable, SourceSystem),
				b("Google Chrome Beta", launch.Chrome, "/usr/bin/google-chrome-beta", ChannelBeta, SourceSystem),
				b("Google Chrome Dev", launch.Chrome, "/opt/google/chrome-unstable/chrome", ChannelDev, SourceSystem),
				b("Google Chrome Canary", launch.Chrome, "/opt/google/chrome-canary/chrome", ChannelCanary, SourceSystem),
				b("Microsoft Edge Beta", launch.Edge, "/usr/bin/microsoft-edge-beta", ChannelBeta, SourceSystem),
				b("Microsoft Edge Dev", launch.Edge, "/opt/microsoft/msedge-dev/msedge", ChannelDev, SourceSystem),
				b("Brave Nightly", launch.Brave, "/opt/brave.com/brave-nightly/brave", "nightly", SourceSystem),
			},
		},
		{
			name: "linux channel commands on PATH",
			m: fakeMachine{
				goos:  "linux",
				files: []string{"/nix/bin/google-chrome-unstable", "/nix/bin/microsoft-edge-dev"},
				path:  map[string]string{"google-chrome-unstable": "/nix/bin/google-chrome-unstable", "microsoft-edge-dev": "/nix/bin/microsoft-edge-dev"},
			},
			want: []launch.Browser{
				b("Google Chrome Dev", launch.Chrome, "/nix/bin/google-chrome-unstable", ChannelDev, SourcePATH),
				b("Microsoft Edge Dev", launch.Edge, "/nix/bin/microsoft-edge-dev", ChannelDev, SourcePATH),
			},
		},
		{
			name: "linux caches: cdpvisor, Playwright, Puppeteer; newest first, shells last",
			m: fakeMachine{
				goos: "linux",
				home: home,
				files: []string{
					"/usr/bin/chromium",
					ours + "/chrome/stable-131.0.6778.85/chrome-linux64/chrome",
					ours + "/chrome/stable-131.0.6778.108/chrome-linux64/chrome",
					ours + "/chrome/beta-132.0.6834.6/chrome-linux64/chrome",
					ours + "/chrome-headless-shell/stable-131.0.6778.85/chrome-headless-shell-linux64/chrome-headless-shell",
					ours + "/chromium/snapshot-1400000/chrome-linux/chrome",
					// An install still downloading or killed half-way: never a browser.
					ours + "/chrome/.cdpvisor-tmp-123/tree/chrome-linux64/chrome",
					pw + "/chromium-1148/chrome-linux/chrome",
					pw + "/chromium-1200/chrome-linux64/chrome",
					pw + "/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell",
					pw + "/chromium_headless_shell-1148/chrome-linux/headless_shell",
					pw + "/chromium-tip-of-tree-1310/chrome-linux/chrome",
					pw + "/ffmpeg-1010/ffmpeg-linux",
					pptr + "/chrome/linux-130.0.6723.58/chrome-linux64/chrome",
					pptr + "/chrome-headless-shell/linux-130.0.6723.58/chrome-headless-shell-linux64/chrome-headless-shell",
					pptr + "/chromium/linux-1083080/chrome-linux/chrome",
					pptr + "/firefox/linux-stable_133.0/firefox/firefox",
				},
				dirs: []string{ours + "/chrome/not-a-browser"},
			},
			want: []launch.Browser{
				b(cftName, launch.Chrome, ours+"/chrome/stable-131.0.6778.108/chrome-linux64/chrome", ChannelStable, SourceCdpvisor),
				b(cftName, launch.Chrome, ours+"/chrome/stable-131.0.6778.85/chrome-linux64/chrome", ChannelStable, SourceCdpvisor),
				b(cftName, launch.Chrome, pptr+"/chrome/linux-130.0.6723.58/chrome-linux64/chrome", "", SourcePuppeteer),
				b(cftName, launch.Chrome, ours+"/chrome/beta-132.0.6834.6/chrome-linux64/chrome", ChannelBeta, SourceCdpvisor),
				b(shellName, launch.Chrome, ours+"/chrome-headless-shell/stable-131.0.6778.85/chrome-headless-shell-linux64/chrome-headless-shell", ChannelStable, SourceCdpvisor),
				b(shellName, launch.Chrome, pptr+"/chrome-headless-shell/linux-130.0.6723.58/chrome-headless-shell-linux64/chrome-headless-shell", "", SourcePuppeteer),
				b("Chromium", launch.Chromium, "/usr/bin/chromium", ChannelStable, SourceSystem),
				b("Chromium", launch.Chromium, pw+"/chromium-1200/chrome-linux64/chrome", "", SourcePlaywright),
				b("Chromium", launch.Chromium, pw+"/chromium-1148/chrome-linux/chrome", "", SourcePlaywright),
				b("Chromium", launch.Chromium, ours+"/chromium/snapshot-1400000/chrome-linux/chrome", ChannelSnapshot, SourceCdpvisor),
				b("Chromium", launch.Chromium, pw+"/chromium-tip-of-tree-1310/chrome-linux/chrome", ChannelSnapshot, SourcePlaywright),
				b("Chromium", launch.Chromium, pptr+"/chromium/linux-1083080/chrome-linux/chrome", ChannelSnapshot, SourcePuppeteer),
				b(shellName, launch.Chromium, pw+"/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell", "", SourcePlaywright),
				b(shellName, launch.Chromium, pw+"/chromium_headless_shell-1148/chrome-linux/headless_shell", "", SourcePlaywright),
				b("Firefox", launch.Firefox, pptr+"/firefox/linux-stable_133.0/firefox/firefox", ChannelStable, SourcePuppeteer),
			},
		},
		{
			name: "linux cache variables move each cache",
			m: fakeMachine{
				goos: "linux",
				home: home,
				env: map[string]string{
					"XDG_CACHE_HOME": "/xdg", InstallDirEnv: "/mine",
					"PLAYWRIGHT_BROWSERS_PATH": "/pw", "PUPPETEER_CACHE_DIR": "/pp",
				},
				files: []string{
					"/mine/chrome/dev-133.0.6878.0/chrome-linux64/chrome",
					"/xdg/cdpvisor/browsers/chrome/stable-131.0.6778.85/chrome-linux64/chrome", // moved away by InstallDirEnv
					"/pw/chromium-1200/chrome-linux64/chrome",
					"/xdg/ms-playwright/chromium-1100/chrome-linux/chrome", // moved away by PLAYWRIGHT_BROWSERS_PATH
					"/pp/chrome/linux-130.0.6723.58/chrome-linux64/chrome",
					pptr + "/chrome/linux-129.0.6668.58/chrome-linux64/chrome", // moved away by PUPPETEER_CACHE_DIR
				},
			},
			want: []launch.Browser{
				b(cftName, launch.Chrome, "/pp/chrome/linux-130.0.6723.58/chrome-linux64/chrome", "", SourcePuppeteer),
				b(cftName, launch.Chrome, "/mine/chrome/dev-133.0.6878.0/chrome-linux64/chrome", ChannelDev, SourceCdpvisor),
				b("Chromium", launch.Chromium, "/pw/chromium-1200/chrome-linux64/chrome", "", SourcePlaywright),
			},
		},
		{
			name: "linux XDG_CACHE_HOME holds ours and Playwright's",
			m: fakeMachine{
				goos: "linux",
				home: home,
				env:  map[string]string{"XDG_CACHE_HOME": "/xdg"},
				files: []string{
					"/xdg/cdpvisor/browsers/chrome/stable-131.0.6778.85/chrome-linux64/chrome",
					"/xdg/ms-playwright/chromium-1200/chrome-linux64/chrome",
				},
			},
			want: []launch.Browser{
				b(cftName, launch.Chrome, "/xdg/cdpvisor/browsers/chrome/stable-131.0.6778.85/chrome-linux64/chrome", ChannelStable, SourceCdpvisor),
				b("Chromium", launch.Chromium, "/xdg/ms-playwright/chromium-1200/chrome-linux64/chrome", "", SourcePlaywright),
			},
		},
		{
			name: "linux detection root hides the system's fixed locations only",
			m: fakeMachine{
				goos:  "linux",
				home:  home,
				root:  "/sysroot",
				files: []string{"/usr/bin/chromium", "/sysroot/usr/bin/google-chrome-beta", ours + "/chromium/snapshot-1400000/chrome-linux/chrome"},
			},
			want: []launch.Browser{
				b("Google Chrome Beta", launch.Chrome, "/sysroot/usr/bin/google-chrome-beta", ChannelBeta, SourceSystem),
				b("Chromium", launch.Chromium, ours+"/chromium/snapshot-1400000/chrome-linux/chrome", ChannelSnapshot, SourceCdpvisor),
			},
		},
		{
			name: "macOS channels and caches",
			m: fakeMachine{
				goos: "darwin",
				home: mhome,
				files: []string{
					"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
					"/Applications/Microsoft Edge Beta.app/Contents/MacOS/Microsoft Edge Beta",
					mhome + "/Library/Caches/cdpvisor/browsers/chrome/stable-131.0.6778.85/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
					mhome + "/Library/Caches/ms-playwright/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
					mhome + "/Library/Caches/ms-playwright/chromium-1100/chrome-mac/Chromium.app/Contents/MacOS/Chromium",
					mhome + "/.cache/puppeteer/chrome-headless-shell/mac_arm-130.0.6723.58/chrome-headless-shell-mac-arm64/chrome-headless-shell",
				},
			},
			want: []launch.Browser{
				b(cftName, launch.Chrome, mhome+"/Library/Caches/cdpvisor/browsers/chrome/stable-131.0.6778.85/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing", ChannelStable, SourceCdpvisor),
				b("Google Chrome Canary", launch.Chrome, "/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary", ChannelCanary, SourceSystem),
				b(shellName, launch.Chrome, mhome+"/.cache/puppeteer/chrome-headless-shell/mac_arm-130.0.6723.58/chrome-headless-shell-mac-arm64/chrome-headless-shell", "", SourcePuppeteer),
				b("Microsoft Edge Beta", launch.Edge, "/Applications/Microsoft Edge Beta.app/Contents/MacOS/Microsoft Edge Beta", ChannelBeta, SourceSystem),
				b("Chromium", launch.Chromium, mhome+"/Library/Caches/ms-playwright/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing", "", SourcePlaywright),
				b("Chromium", launch.Chromium, mhome+"/Library/Caches/ms-playwright/chromium-1100/chrome-mac/Chromium.app/Contents/MacOS/Chromium", "", SourcePlaywright),
			},
		},
		{
			name: "windows channels and caches",
			m: fakeMachine{
				goos: "windows",
				home: `C:\Users\ann`,
				env:  map[string]string{"LOCALAPPDATA": local},
				files: []string{
					local + `\Google\Chrome SxS\Application\chrome.exe`,
					local + `\Microsoft\Edge Dev\Application\msedge.exe`,
					local + `\cdpvisor\browsers\chrome\stable-131.0.6778.85\chrome-win64\chrome.exe`,
					local + `\ms-playwright\chromium-1200\chrome-win64\chrome.exe`,
					local + `\ms-playwright\chromium_headless_shell-1148\chrome-win\headless_shell.exe`,
					`C:\Users\ann\.cache\puppeteer\chromium\win64-1083080\chrome-win\chrome.exe`,
				},
			},
			want: []launch.Browser{
				b(cftName, launch.Chrome, local+`\cdpvisor\browsers\chrome\stable-131.0.6778.85\chrome-win64\chrome.exe`, ChannelStable, SourceCdpvisor),
				b("Google Chrome Canary", launch.Chrome, local+`\Google\Chrome SxS\Application\chrome.exe`, ChannelCanary, SourceSystem),
				b("Microsoft Edge Dev", launch.Edge, local+`\Microsoft\Edge Dev\Application\msedge.exe`, ChannelDev, SourceSystem),
				b("Chromium", launch.Chromium, local+`\ms-playwright\chromium-1200\chrome-win64\chrome.exe`, "", SourcePlaywright),
				b("Chromium", launch.Chromium, `C:\Users\ann\.cache\puppeteer\chromium\win64-1083080\chrome-win\chrome.exe`, ChannelSnapshot, SourcePuppeteer),
				b(shellName, launch.Chromium, local+`\ms-playwright\chromium_headless_shell-1148\chrome-win\headless_shell.exe`, "", SourcePlaywright),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(fakeSystem(tt.m))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Detect() =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(tt.want))
			}
		})
	}
}

func listBrowsers(bs []launch.Browser) string {
	var lines []string
	for _, b := range bs {
		lines = append(lines, b.Name+" | "+string(b.Type)+" | "+b.Channel+" | "+b.Source+" | "+b.Path)
	}
	return strings.Join(lines, "\n")
}

func TestResolveCommandsOnPATHAndCaches(t *testing.T) {
	const ours = "/home/ann/.cache/cdpvisor/browsers"
	m := fakeMachine{
		goos: "linux",
		home: "/home/ann",
		files: []string{
			"/usr/bin/chromium", "/usr/local/bin/google-chrome-beta", "/home/ann/bin/microsoft-edge",
			"/home/ann/bin/chromium-browser", ours + "/chrome/stable-131.0.6778.85/chrome-linux64/chrome",
		},
		path: map[string]string{
			"google-chrome-beta": "/usr/local/bin/google-chrome-beta",
			"microsoft-edge":     "/home/ann/bin/microsoft-edge",
			"chromium-browser":   "/home/ann/bin/chromium-browser",
		},
	}
	tests := []struct {
		want    string
		browser launch.Browser
		errHas  string
	}{
		// `cdpvisor install` put Chrome for Testing in the cache: --browser chrome finds it.
		{want: "chrome", browser: b(cftName, launch.Chrome, ours+"/chrome/stable-131.0.6778.85/chrome-linux64/chrome", ChannelStable, SourceCdpvisor)},
		{want: "google-chrome-beta", browser: b("Google Chrome Beta", launch.Chrome, "/usr/local/bin/google-chrome-beta", ChannelBeta, SourcePATH)},
		{want: "microsoft-edge", browser: b("Microsoft Edge", launch.Edge, "/home/ann/bin/microsoft-edge", ChannelStable, SourcePATH)},
		{want: "chromium-browser", browser: b("Chromium", launch.Chromium, "/home/ann/bin/chromium-browser", ChannelStable, SourcePATH)},
		{want: "google-chrome-canary", errHas: `unknown browser "google-chrome-canary": not a command on $PATH`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got, err := Resolve(fakeSystem(m), tt.want)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("Resolve(%q) = %+v, %v; want error with %q", tt.want, got, err, tt.errHas)
				}
				return
			}
			if err != nil || got != tt.browser {
				t.Fatalf("Resolve(%q) = %+v, %v\nwant %+v", tt.want, got, err, tt.browser)
			}
		})
	}
}

func TestNotFoundOffersInstall(t *testing.T) {
	_, err := Resolve(fakeSystem(fakeMachine{goos: "linux", home: "/home/ann"}), "")
	for _, want := range []string{"apt-get install chromium", "cdpvisor install", "/home/ann/.cache/cdpvisor/browsers", "/home/ann/.cache/ms-playwright", "/home/ann/.cache/puppeteer"} {
		if err == nil || !strings.Contains(remedy.Explain(err, remedy.Plain), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	_, err = Resolve(fakeSystem(fakeMachine{goos: "linux", files: []string{"/usr/bin/chromium"}}), "chrome")
	if err == nil || !strings.Contains(remedy.Explain(err, remedy.Plain), "'cdpvisor install chrome'") {
		t.Errorf("missing chrome: %v, want the install command offered", err)
	}
}

func TestInstallRoot(t *testing.T) {
	for _, tt := range []struct {
		m    fakeMachine
		want string
	}{
		{fakeMachine{goos: "linux", home: "/home/ann"}, "/home/ann/.cache/cdpvisor/browsers"},
		{fakeMachine{goos: "linux", home: "/home/ann", env: map[string]string{"XDG_CACHE_HOME": "/x"}}, "/x/cdpvisor/browsers"},
		{fakeMachine{goos: "linux", home: "/home/ann", env: map[string]string{"XDG_CACHE_HOME": "relative"}}, "/home/ann/.cache/cdpvisor/browsers"},
		{fakeMachine{goos: "linux", env: map[string]string{InstallDirEnv: "/opt/b"}}, "/opt/b"},
		{fakeMachine{goos: "linux"}, ""},
		{fakeMachine{goos: "darwin", home: "/Users/ann"}, "/Users/ann/Library/Caches/cdpvisor/browsers"},
		{fakeMachine{goos: "windows", env: map[string]string{"LOCALAPPDATA": `C:\L\`}}, `C:\L\cdpvisor\browsers`},
	} {
		if got := InstallRoot(fakeSystem(tt.m)); got != tt.want {
			t.Errorf("InstallRoot(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

// The same on a real file tree through HostSystem, with the machine's own
// browsers hidden by the detection root and PATH: what `cdpvisor browsers`
// sees on a machine with only cached builds.
func TestHostDetectionOfCachesOnDisk(t *testing.T) {
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
	mk := func(rel, version string) string {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeScript(t, filepath.Dir(p), filepath.Base(p), "echo 'Google Chrome for Testing "+version+"'")
		return p
	}
	ours := mk(".cache/cdpvisor/browsers/chrome/canary-134.0.6900.0/chrome-linux64/chrome", "134.0.6900.0")
	pw := mk(".cache/ms-playwright/chromium-1200/chrome-linux64/chrome", "141.0.7390.37")
	// Not executable: not a browser.
	if err := os.MkdirAll(filepath.Join(home, ".cache/puppeteer/chrome/linux-1/chrome-linux64"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cache/puppeteer/chrome/linux-1/chrome-linux64/chrome"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := DetectWithVersions(context.Background(), HostSystem())
	want := []launch.Browser{
		{Name: cftName, Type: launch.Chrome, Path: ours, Version: "134.0.6900.0", Channel: ChannelCanary, Source: SourceCdpvisor},
		{Name: "Chromium", Type: launch.Chromium, Path: pw, Version: "141.0.7390.37", Source: SourcePlaywright},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DetectWithVersions =\n%s\nwant\n%s", listBrowsers(got), listBrowsers(want))
	}
}

package install

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

const (
	stable = "131.0.6778.85"
	beta   = "132.0.6834.15"
)

// chromeZip is a Chrome for Testing zip for linux64 as the real one is laid
// out: an executable, its resources, a library link.
func chromeZip(t *testing.T, version string) []byte {
	return actortest.Zip(t,
		actortest.ZipFile{Name: "chrome-linux64/", Mode: fs.ModeDir | 0o755},
		actortest.ZipFile{Name: "chrome-linux64/chrome", Body: actortest.VersionScript(version, ""), Mode: 0o755},
		actortest.ZipFile{Name: "chrome-linux64/chrome_crashpad_handler", Body: "#!/bin/sh\n", Mode: 0o755},
		actortest.ZipFile{Name: "chrome-linux64/resources.pak", Body: strings.Repeat("pak ", 64<<10)},
		actortest.ZipFile{Name: "chrome-linux64/locales/en-US.pak", Body: "en"},
		actortest.ZipFile{Name: "chrome-linux64/libvk_swiftshader.so.1", Body: "elf"},
		actortest.ZipFile{Name: "chrome-linux64/libvk_swiftshader.so", Link: "libvk_swiftshader.so.1"},
	)
}

// linux64 installs for linux/amd64 whatever the host, into dir, from m.
func linux64(dir string, m *actortest.InstallMirror, log *bytes.Buffer) Options {
	return Options{Dir: dir, Mirror: m.URL, GOOS: "linux", GOARCH: "amd64", Log: log, Stall: 5 * time.Second}
}

func TestInstallChromeFromMirror(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("checks Unix modes and links")
	}
	m := actortest.NewInstallMirror(t)
	m.Serve(actortest.IndexPath, actortest.MirrorIndex(map[string]string{"Stable": stable, "Beta": beta, "Dev": "133.0.6878.0", "Canary": "134.0.6900.0"},
		[]string{"linux64", "mac-arm64", "mac-x64", "win32", "win64"}, "chrome", "chrome-headless-shell"))
	zipPath := actortest.MirrorZipPath("chrome", stable, "linux64")
	m.Serve(zipPath, chromeZip(t, stable))
	dir := t.TempDir()
	var log bytes.Buffer
	res, err := Install(context.Background(), linux64(dir, m, &log))
	if err != nil {
		t.Fatalf("Install: %v\n%s", err, log.String())
	}
	wantExe := filepath.Join(dir, "chrome", "stable-"+stable, "chrome-linux64", "chrome")
	if res.Executable != wantExe || res.Version != stable || res.Channel != "stable" || res.Platform != "linux64" || res.Existed {
		t.Fatalf("Install = %+v, want %s", res, wantExe)
	}
	info, err := os.Stat(wantExe)
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Fatalf("executable: %v, mode %v", err, info.Mode())
	}
	if info, err := os.Stat(filepath.Join(res.Dir, "chrome-linux64", "resources.pak")); err != nil || info.Mode().Perm() != 0o644 {
		t.Fatalf("resources.pak: %v", err)
	}
	if l, err := os.Readlink(filepath.Join(res.Dir, "chrome-linux64", "libvk_swiftshader.so")); err != nil || l != "libvk_swiftshader.so.1" {
		t.Fatalf("library link: %q, %v", l, err)
	}
	assertOnly(t, dir, res.Dir)
	for _, want := range []string{"chrome stable is " + stable + " (linux64)", "downloading chrome " + stable, "unzipping into " + res.Dir} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}

	// Detection finds it in the cache, with its channel and source, as
	// `cdpvisor browsers` and `--browser chrome` would.
	sys := detect.HostSystem()
	sys.Root = t.TempDir() // hide this machine's own browsers
	sys.LookPath = nil
	sys.Getenv = func(k string) string {
		if k == detect.InstallDirEnv {
			return dir
		}
		return ""
	}
	sys.HomeDir = t.TempDir()
	got, err := detect.Resolve(sys, "chrome")
	want := launch.Browser{Name: "Google Chrome for Testing", Type: launch.Chrome, Path: wantExe, Channel: "stable", Source: detect.SourceCdpvisor}
	if err != nil || got != want {
		t.Fatalf("Resolve(chrome) = %+v, %v; want %+v", got, err, want)
	}
	if v, err := detect.ReadVersion(context.Background(), sys, got); err != nil || v != stable {
		t.Fatalf("version of the installed browser: %q, %v", v, err)
	}

	// Again: nothing downloaded.
	res2, err := Install(context.Background(), linux64(dir, m, &log))
	if err != nil || !res2.Existed || res2.Executable != wantExe || m.Hits(zipPath) != 1 {
		t.Fatalf("second Install = %+v, %v (zip fetched %d times), want it found installed", res2, err, m.Hits(zipPath))
	}

	// Another channel goes beside it.
	m.Serve(actortest.MirrorZipPath("chrome", beta, "linux64"), chromeZip(t, beta))
	o := linux64(dir, m, &log)
	o.Channel = "Beta"
	res3, err := Install(context.Background(), o)
	if err != nil || res3.Executable != filepath.Join(dir, "chrome", "beta-"+beta, "chrome-linux64", "chrome") {
		t.Fatalf("beta: %+v, %v", res3, err)
	}
}

func TestInstallHeadlessShellAndOtherPlatforms(t *testing.T) {
	tests := []struct {
		product, goos, goarch, platform, exe string
		offered                              []string
	}{
		{"chrome-headless-shell", "linux", "amd64", "linux64", "chrome-headless-shell-linux64/chrome-headless-shell", []string{"linux64"}},
		{"chrome", "darwin", "arm64", "mac-arm64", "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing", []string{"mac-arm64", "mac-x64"}},
		{"chrome", "windows", "amd64", "win64", "chrome-win64/chrome.exe", []string{"win32", "win64"}},
		// No Windows on ARM build in the index: the x64 one, which Windows emulates.
		{"chrome", "windows", "arm64", "win64", "chrome-win64/chrome.exe", []string{"win64"}},
		{"chrome-headless-shell", "windows", "386", "win32", "chrome-headless-shell-win32/chrome-headless-shell.exe", []string{"win32", "win64"}},
	}
	for _, tt := range tests {
		t.Run(tt.product+" "+tt.goos+"/"+tt.goarch, func(t *testing.T) {
			m := actortest.NewInstallMirror(t)
			m.Serve(actortest.IndexPath, actortest.MirrorIndex(map[string]string{"Stable": stable}, tt.offered, tt.product))
			m.Serve(actortest.MirrorZipPath(tt.product, stable, tt.platform), actortest.Zip(t, actortest.ZipFile{Name: tt.exe, Body: "exe", Mode: 0o755}))
			dir := t.TempDir()
			res, err := Install(context.Background(), Options{Product: tt.product, Dir: dir, Mirror: m.URL, GOOS: tt.goos, GOARCH: tt.goarch})
			want := filepath.Join(dir, tt.product, "stable-"+stable, filepath.FromSlash(tt.exe))
			if err != nil || res.Executable != want || res.Platform != tt.platform {
				t.Fatalf("Install = %+v, %v; want %s", res, err, want)
			}
		})
	}
}

func TestInstallChromiumSnapshot(t *testing.T) {
	m := actortest.NewInstallMirror(t)
	m.Serve("/Linux_x64/LAST_CHANGE", []byte("1400123\n"))
	m.Serve("/Linux_x64/1400123/chrome-linux.zip", actortest.Zip(t, actortest.ZipFile{Name: "chrome-linux/chrome", Body: actortest.VersionScript("135.0.7000.0", ""), Mode: 0o755}))
	dir := t.TempDir()
	res, err := Install(context.Background(), Options{Product: "chromium", Dir: dir, Mirror: m.URL + "/", GOOS: "linux", GOARCH: "amd64"})
	want := filepath.Join(dir, "chromium", "snapshot-1400123", "chrome-linux", "chrome")
	if err != nil || res.Executable != want || res.Channel != "snapshot" || res.Version != "1400123" {
		t.Fatalf("Install = %+v, %v; want %s", res, err, want)
	}
	sys := launch.System{GOOS: "linux", Getenv: func(k string) string {
		if k == detect.InstallDirEnv {
			return dir
		}
		return ""
	}, Exists: isFile, Glob: filepath.Glob, Root: t.TempDir()}
	if got, err := detect.Resolve(sys, "chromium"); err != nil || got.Path != want || got.Channel != "snapshot" {
		t.Fatalf("Resolve(chromium) = %+v, %v", got, err)
	}
}

// Every way an install can fail ends with a clear error and nothing in the
// cache: no file at all, so no half-installed browser for detection to find.
func TestInstallFailuresLeaveNothing(t *testing.T) {
	good := chromeZip(t, stable)
	zipPath := actortest.MirrorZipPath("chrome", stable, "linux64")
	index := actortest.MirrorIndex(map[string]string{"Stable": stable}, []string{"linux64"}, "chrome")
	corrupt := bytes.Clone(good)
	// Flip a byte inside resources.pak's compressed data: the zip's directory
	// still reads, the CRC-32 check fails.
	i := bytes.Index(corrupt, []byte("chrome-linux64/resources.pak")) + len("chrome-linux64/resources.pak") + 4
	corrupt[i] ^= 0xff
	tests := []struct {
		name    string
		setup   func(m *actortest.InstallMirror)
		opts    func(o *Options)
		errHas  []string
		noFetch bool // refused before any request
	}{
		{
			name: "truncated download",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Truncate(zipPath, good, len(good)/2, true)
			},
			errHas: []string{"truncated: got", "of " + sizeText(int64(len(good)))},
		},
		{
			name: "truncated download without a length",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Truncate(zipPath, good, len(good)/2, false)
			},
			errHas: []string{"not a valid zip archive"},
		},
		{
			name: "bad zip",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Serve(zipPath, []byte("<html>Service Unavailable</html>"))
			},
			errHas: []string{"unzip", "not a valid zip archive"},
		},
		{
			name:   "damaged zip",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index); m.Serve(zipPath, corrupt) },
			errHas: []string{"resources.pak", "damaged"},
		},
		{
			name:   "zip 404",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index) },
			errHas: []string{"HTTP 404 Not Found", zipPath, "the mirror", "lacks this file"},
		},
		{
			name:   "index 404",
			setup:  func(m *actortest.InstallMirror) {},
			errHas: []string{"read the Chrome for Testing index", "HTTP 404", actortest.IndexPath},
		},
		{
			name:   "index not JSON",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, []byte("<html>")) },
			errHas: []string{"not the expected JSON"},
		},
		{
			name:   "channel missing from the index",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index) },
			opts:   func(o *Options) { o.Channel = "canary" },
			errHas: []string{"has no Canary channel (it has: Stable)"},
		},
		{
			name:    "unknown channel",
			setup:   func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index) },
			opts:    func(o *Options) { o.Channel = "nightly" },
			errHas:  []string{`unknown channel "nightly": want stable, beta, dev, canary`},
			noFetch: true,
		},
		{
			name:    "unknown product",
			setup:   func(m *actortest.InstallMirror) {},
			opts:    func(o *Options) { o.Product = "firefox" },
			errHas:  []string{`unknown browser "firefox": want chrome, chrome-headless-shell, chromium`},
			noFetch: true,
		},
		{
			name:    "chromium takes no channel",
			setup:   func(m *actortest.InstallMirror) {},
			opts:    func(o *Options) { o.Product, o.Channel = "chromium", "beta" },
			errHas:  []string{"chromium has no channels", "install chrome --channel beta"},
			noFetch: true,
		},
		{
			name:    "mirror not a URL",
			setup:   func(m *actortest.InstallMirror) {},
			opts:    func(o *Options) { o.Mirror = "ftp:/x" },
			errHas:  []string{`mirror "ftp:/x": want an http:// or https:// URL`},
			noFetch: true,
		},
		{
			name:   "no build for the platform",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index) },
			opts:   func(o *Options) { o.GOARCH = "arm64" },
			errHas: []string{"no Chrome for Testing chrome " + stable + " build for linux/arm64 (Stable offers: linux64)"},
		},
		{
			name: "version that is not a version",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, actortest.MirrorIndex(map[string]string{"Stable": "../../../x"}, []string{"linux64"}, "chrome"))
			},
			errHas: []string{`the version "../../../x", not a version number`},
		},
		{
			name: "zip without the browser",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Serve(zipPath, actortest.Zip(t, actortest.ZipFile{Name: "chrome-linux64/README", Body: "hi"}))
			},
			errHas: []string{"has no chrome-linux64/chrome"},
		},
		{
			name: "zip slip",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Serve(zipPath, actortest.Zip(t, actortest.ZipFile{Name: "chrome-linux64/chrome", Body: "x", Mode: 0o755}, actortest.ZipFile{Name: "chrome-linux64/../../../../evil", Body: "x"}))
			},
			errHas: []string{`"chrome-linux64/../../../../evil": a ".." element`},
		},
		{
			name: "absolute entry",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Serve(zipPath, actortest.Zip(t, actortest.ZipFile{Name: "/tmp/evil", Body: "x"}))
			},
			errHas: []string{`"/tmp/evil": absolute`},
		},
		{
			name: "link out of the tree",
			setup: func(m *actortest.InstallMirror) {
				m.Serve(actortest.IndexPath, index)
				m.Serve(zipPath, actortest.Zip(t, actortest.ZipFile{Name: "chrome-linux64/chrome", Body: "x", Mode: 0o755}, actortest.ZipFile{Name: "chrome-linux64/lib", Link: "../../../../../etc"}))
			},
			errHas: []string{`link to "../../../../../etc" points outside`},
		},
		{
			name:   "stalled download",
			setup:  func(m *actortest.InstallMirror) { m.Serve(actortest.IndexPath, index); m.Stall(zipPath, good, 1000) },
			opts:   func(o *Options) { o.Stall = 300 * time.Millisecond },
			errHas: []string{"no data for 300ms after 1000 B"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := actortest.NewInstallMirror(t)
			tt.setup(m)
			dir := t.TempDir()
			var log bytes.Buffer
			o := linux64(dir, m, &log)
			if tt.opts != nil {
				tt.opts(&o)
			}
			res, err := Install(context.Background(), o)
			if err == nil {
				t.Fatalf("Install = %+v, want an error", res)
			}
			for _, want := range tt.errHas {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			var bad *OptionError
			if tt.noFetch && (m.Hits(actortest.IndexPath) != 0 || !errors.As(err, &bad)) {
				t.Errorf("not refused as a bad option before any request (index fetched %d times)", m.Hits(actortest.IndexPath))
			}
			assertOnly(t, dir, "")
			assertOnly(t, filepath.Dir(dir), dir) // nothing written beside the cache either
		})
	}
}

func TestInstallCancelledLeavesNothing(t *testing.T) {
	m := actortest.NewInstallMirror(t)
	good := chromeZip(t, stable)
	m.Serve(actortest.IndexPath, actortest.MirrorIndex(map[string]string{"Stable": stable}, []string{"linux64"}, "chrome"))
	m.Stall(actortest.MirrorZipPath("chrome", stable, "linux64"), good, 1000)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := Install(ctx, linux64(dir, m, &bytes.Buffer{}))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Install = %v, want the context's error", err)
	}
	assertOnly(t, dir, "")
}

// A temporary directory a killed install left is removed by the next
// install once nothing has written to it for an hour; a recent one (an
// install running now) is left alone.
func TestInstallRemovesStaleTemporaryDirectories(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "chrome", tempPrefix+"old")
	recent := filepath.Join(dir, "chrome", tempPrefix+"recent")
	for _, d := range []string{old, recent} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "download.zip"), []byte("part"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * time.Hour)
	for _, p := range []string{filepath.Join(old, "download.zip"), old} {
		if err := os.Chtimes(p, long, long); err != nil {
			t.Fatal(err)
		}
	}
	m := actortest.NewInstallMirror(t)
	m.ServeRelease("Stable", stable, "chrome", "linux64", chromeZip(t, stable))
	var log bytes.Buffer
	if _, err := Install(context.Background(), linux64(dir, m, &log)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("stale %s still there: %v", old, err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("recent %s removed: %v", recent, err)
	}
	if !strings.Contains(log.String(), "left by an interrupted install") {
		t.Errorf("log does not say what it removed:\n%s", log.String())
	}
}

// A directory where the install would go, without the browser in it, is
// reported and left as it is.
func TestInstallRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "chrome", "stable-"+stable)
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	m := actortest.NewInstallMirror(t)
	m.ServeRelease("Stable", stable, "chrome", "linux64", chromeZip(t, stable))
	_, err := Install(context.Background(), linux64(dir, m, &bytes.Buffer{}))
	if err == nil || !strings.Contains(err.Error(), "exists but holds no chrome-linux64/chrome: remove it") {
		t.Fatalf("Install = %v", err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("the directory was touched: %v", err)
	}
}

func TestDownloadURL(t *testing.T) {
	const index = "http://127.0.0.1:1/m/" + "last-known-good-versions-with-downloads.json"
	for _, tt := range []struct{ u, mirror, want string }{
		{actortest.Bucket + "/1.2.3.4/linux64/chrome-linux64.zip", "http://127.0.0.1:1/m", "http://127.0.0.1:1/m/1.2.3.4/linux64/chrome-linux64.zip"},
		{actortest.Bucket + "/1.2.3.4/linux64/chrome-linux64.zip", "", actortest.Bucket + "/1.2.3.4/linux64/chrome-linux64.zip"},
		{"1.2.3.4/linux64/chrome-linux64.zip", "http://127.0.0.1:1/m", "http://127.0.0.1:1/m/1.2.3.4/linux64/chrome-linux64.zip"},
		{"https://mirror.example/cft/1.2.3.4/x.zip", "http://127.0.0.1:1/m", "https://mirror.example/cft/1.2.3.4/x.zip"},
	} {
		if got, err := downloadURL(index, tt.u, tt.mirror); err != nil || got != tt.want {
			t.Errorf("downloadURL(%q, mirror %q) = %q, %v; want %q", tt.u, tt.mirror, got, err, tt.want)
		}
	}
}

// assertOnly fails unless the only files under root are inside keep ("":
// none at all).
func assertOnly(t *testing.T, root, keep string) {
	t.Helper()
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if keep != "" && (p == keep || strings.HasPrefix(p, keep+string(filepath.Separator))) {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			t.Errorf("left behind: %s", p)
		} else if strings.Contains(d.Name(), tempPrefix) {
			t.Errorf("temporary directory left: %s", p)
		}
		return nil
	})
}

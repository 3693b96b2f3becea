// Package install downloads a browser into cdpvisor's cache, the way
// `npx @puppeteer/browsers install` and `playwright install` do, for
// `cdpvisor install`:
//
//   - chrome and chrome-headless-shell: Chrome for Testing, the version a
//     channel's last-known-good entry names in Google's JSON index;
//   - chromium: the newest Chromium snapshot build (Chromium publishes no
//     releases of its own; Chrome for Testing has no Chromium).
//
// The zip is downloaded to a temporary name inside the cache, checked
// (length, then every file's CRC-32 while unzipping) and unzipped there, and
// only the finished tree is renamed into place: an interrupted or failed
// install leaves nothing that detection could mistake for a browser.
//
// A mirror (Options.Mirror) replaces Google's hosts. It serves
// last-known-good-versions-with-downloads.json at its root and the zips
// under the bucket's paths (<version>/<platform>/chrome-<platform>.zip); for
// chromium, the snapshot bucket's layout (<Platform>/LAST_CHANGE and
// <Platform>/<revision>/chrome-*.zip). The two do not collide, so one
// mirror can serve both.
package install

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// Products and Channels are what Install accepts.
var (
	Products = []string{detect.ProductChrome, detect.ProductHeadlessShell, detect.ProductChromium}
	Channels = []string{detect.ChannelStable, detect.ChannelBeta, detect.ChannelDev, detect.ChannelCanary}
)

// Options say what to install where.
type Options struct {
	Product string // chrome (default), chrome-headless-shell or chromium
	Channel string // stable (default), beta, dev or canary; chromium takes none
	// Dir is the cache root (the caller's detect.InstallRoot). Installs go to
	// <Dir>/<product>/<channel>-<version>/.
	Dir    string
	Mirror string // base URL replacing Google's download hosts; see the package doc
	// GOOS and GOARCH pick the build (default: this machine's).
	GOOS, GOARCH string
	Client       *http.Client
	UserAgent    string
	Log          io.Writer     // steps and progress, for stderr; nil discards
	TTY          bool          // Log is a terminal: draw a progress bar
	Stall        time.Duration // give up a download silent this long (default 60s)
}

// Result is what was installed, or found already installed.
type Result struct {
	Product, Channel, Version, Platform string
	Dir                                 string // the install's directory
	Executable                          string
	Existed                             bool // it was there already: nothing downloaded
}

// tempPrefix names the in-progress directories inside <Dir>/<product>/.
const tempPrefix = ".cdpvisor-tmp-"

// staleAfter is how long an in-progress directory may go unwritten before a
// later install removes it as left by a killed one.
const staleAfter = time.Hour

// Install resolves, downloads, checks and unpacks one browser. Bad options
// fail before any network access.
func Install(ctx context.Context, o Options) (Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return Result{}, err
	}
	log := o.Log
	f := fetcher{client: o.Client, userAgent: o.UserAgent, stall: o.Stall}
	var rel release
	if o.Product == detect.ProductChromium {
		rel, err = resolveSnapshot(ctx, f, o.GOOS, o.GOARCH, o.Mirror)
	} else {
		rel, err = resolveCfT(ctx, f, o.Product, o.Channel, o.GOOS, o.GOARCH, o.Mirror)
	}
	if err != nil {
		return Result{}, withHint(err, o.Mirror)
	}
	productDir := filepath.Join(o.Dir, rel.product)
	res := Result{
		Product: rel.product, Channel: rel.channel, Version: rel.version, Platform: rel.platform,
		Dir: filepath.Join(productDir, rel.channel+"-"+rel.version),
	}
	res.Executable = filepath.Join(res.Dir, filepath.FromSlash(rel.exe))
	fmt.Fprintf(log, "cdpvisor install: %s %s is %s (%s)\n", rel.product, rel.channel, rel.version, rel.platform)
	if isFile(res.Executable) {
		res.Existed = true
		return res, nil
	}
	if _, err := os.Lstat(res.Dir); err == nil {
		return Result{}, fmt.Errorf("%s exists but holds no %s: remove it and run the install again", res.Dir, rel.exe)
	}
	if err := os.MkdirAll(productDir, 0o755); err != nil {
		return Result{}, fmt.Errorf("create the install directory: %w", err)
	}
	removeStale(productDir, log)
	tmp, err := os.MkdirTemp(productDir, tempPrefix)
	if err != nil {
		return Result{}, fmt.Errorf("create a temporary directory in %s: %w", productDir, err)
	}
	defer os.RemoveAll(tmp) // after a successful rename only the zip is left in it

	zipPath := filepath.Join(tmp, "download.zip")
	label := fmt.Sprintf("%s %s", rel.product, rel.version)
	if err := f.download(ctx, rel.url, zipPath, newProgress(log, o.TTY, label)); err != nil {
		return Result{}, withHint(err, o.Mirror)
	}
	fmt.Fprintf(log, "cdpvisor install: unzipping into %s\n", res.Dir)
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		return Result{}, err
	}
	if err := unzip(zipPath, tree); err != nil {
		return Result{}, fmt.Errorf("unzip %s: %w", rel.url, err)
	}
	exe := filepath.Join(tree, filepath.FromSlash(rel.exe))
	info, err := os.Stat(exe)
	if err != nil || !info.Mode().IsRegular() {
		return Result{}, fmt.Errorf("the zip from %s has no %s: not a %s build for %s", rel.url, rel.exe, rel.product, rel.platform)
	}
	if info.Mode().Perm()&0o111 == 0 {
		if err := os.Chmod(exe, 0o755); err != nil {
			return Result{}, err
		}
	}
	if err := os.Rename(tree, res.Dir); err != nil {
		if isFile(res.Executable) { // another install of the same build won the race
			res.Existed = true
			return res, nil
		}
		return Result{}, fmt.Errorf("move the unzipped browser into place: %w", err)
	}
	return res, nil
}

// OptionError is a bad option, found before any download.
type OptionError struct{ msg string }

func (e *OptionError) Error() string { return e.msg }

func optionErr(format string, args ...any) error {
	return &OptionError{fmt.Sprintf(format, args...)}
}

// withDefaults checks the options and fills in the defaults.
func (o Options) withDefaults() (Options, error) {
	if o.Product == "" {
		o.Product = detect.ProductChrome
	}
	if !slices.Contains(Products, o.Product) {
		return o, optionErr("unknown browser %q: want %s", o.Product, strings.Join(Products, ", "))
	}
	o.Channel = strings.ToLower(strings.TrimSpace(o.Channel))
	if o.Product == detect.ProductChromium {
		if o.Channel != "" {
			return o, optionErr("chromium has no channels: it is the newest Chromium snapshot build; for a channel install chrome --channel %s", o.Channel)
		}
	} else {
		if o.Channel == "" {
			o.Channel = detect.ChannelStable
		}
		if !slices.Contains(Channels, o.Channel) {
			return o, optionErr("unknown channel %q: want %s", o.Channel, strings.Join(Channels, ", "))
		}
	}
	if o.Mirror != "" {
		u, err := url.Parse(o.Mirror)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return o, optionErr("mirror %q: want an http:// or https:// URL", o.Mirror)
		}
		o.Mirror = strings.TrimRight(o.Mirror, "/")
	}
	if o.Dir == "" {
		return o, fmt.Errorf("no cache directory to install into (neither %s, XDG_CACHE_HOME nor HOME is set): give a directory", detect.InstallDirEnv)
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, err
	}
	o.Dir = dir
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.GOARCH == "" {
		o.GOARCH = runtime.GOARCH
	}
	if o.Client == nil {
		o.Client = defaultClient()
	}
	if o.Stall <= 0 {
		o.Stall = time.Minute
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return o, nil
}

// defaultClient bounds connecting and waiting for headers; the body of a
// large download has no deadline, only the stall limit.
func defaultClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second}).DialContext
	t.ResponseHeaderTimeout = time.Minute
	return &http.Client{Transport: t}
}

// withHint adds what to check when a download is missing from a mirror.
func withHint(err error, mirror string) error {
	var se *StatusError
	if mirror != "" && asStatus(err, &se) && se.Code == http.StatusNotFound {
		return fmt.Errorf("%w (the mirror %s lacks this file; see 'cdpvisor install --help' for the layout a mirror serves)", err, mirror)
	}
	return err
}

// removeStale deletes in-progress directories nobody has written to for
// staleAfter: what a killed install left.
func removeStale(productDir string, log io.Writer) {
	entries, err := os.ReadDir(productDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		dir := filepath.Join(productDir, e.Name())
		if time.Since(newestChange(dir)) > staleAfter {
			fmt.Fprintf(log, "cdpvisor install: removing %s, left by an interrupted install\n", dir)
			os.RemoveAll(dir)
		}
	}
}

// newestChange is the latest modification time in a tree.
func newestChange(dir string) time.Time {
	var newest time.Time
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(newest) {
			newest = info.ModTime()
		}
		return nil
	})
	return newest
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

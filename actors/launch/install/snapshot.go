package install

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// snapshotBase is the Chromium snapshot bucket: <folder>/LAST_CHANGE holds
// the newest revision, <folder>/<revision>/<zip> its build. Chromium has no
// release builds of its own; these tip-of-tree builds are what Puppeteer's
// "chromium" is.
const snapshotBase = "https://storage.googleapis.com/chromium-browser-snapshots"

var revision = regexp.MustCompile(`^\d+$`)

// resolveSnapshot finds the newest Chromium snapshot for the platform. A
// mirror serves the same layout as the bucket.
func resolveSnapshot(ctx context.Context, f fetcher, goos, goarch, mirror string) (release, error) {
	plat, ok := snapshotPlatformOf(goos, goarch)
	if !ok {
		return release{}, fmt.Errorf("no Chromium snapshot builds exist for %s/%s; install your system's Chromium instead", goos, goarch)
	}
	base := snapshotBase
	if mirror != "" {
		base = mirror
	}
	lastURL := base + "/" + plat.folder + "/LAST_CHANGE"
	body, err := f.small(ctx, lastURL)
	if err != nil {
		return release{}, fmt.Errorf("find the newest Chromium snapshot: %w", err)
	}
	rev := strings.TrimSpace(string(body))
	if !revision.MatchString(rev) {
		return release{}, fmt.Errorf("find the newest Chromium snapshot: %s holds %q, not a revision number", lastURL, truncate(rev, 40))
	}
	return release{
		product: "chromium", channel: "snapshot", version: rev, platform: plat.folder,
		url: base + "/" + plat.folder + "/" + rev + "/" + plat.zip, exe: plat.exe,
	}, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

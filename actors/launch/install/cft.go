package install

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

const (
	// cftIndexBase serves Chrome for Testing's JSON indexes.
	cftIndexBase = "https://googlechromelabs.github.io/chrome-for-testing"
	// cftBucket is where the index's download URLs point; a mirror replaces
	// this prefix.
	cftBucket = "https://storage.googleapis.com/chrome-for-testing-public"
	// cftLastKnownGood lists, per channel, the newest version with every
	// download in place.
	cftLastKnownGood = "last-known-good-versions-with-downloads.json"
)

// cftVersion guards the version before it becomes a directory name.
var cftVersion = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`)

// cftIndex is the part of last-known-good-versions-with-downloads.json we
// read: channels.Stable.version and .downloads.chrome[].{platform,url}.
type cftIndex struct {
	Channels map[string]struct {
		Version   string `json:"version"`
		Downloads map[string][]struct {
			Platform string `json:"platform"`
			URL      string `json:"url"`
		} `json:"downloads"`
	} `json:"channels"`
}

// resolveCfT finds the newest known-good build of product (chrome or
// chrome-headless-shell) on channel for the platform. With a mirror, the
// index comes from <mirror>/last-known-good-versions-with-downloads.json and
// download URLs on Google's bucket are moved to the mirror.
func resolveCfT(ctx context.Context, f fetcher, product, channel, goos, goarch, mirror string) (release, error) {
	indexURL := cftIndexBase + "/" + cftLastKnownGood
	if mirror != "" {
		indexURL = mirror + "/" + cftLastKnownGood
	}
	body, err := f.small(ctx, indexURL)
	if err != nil {
		return release{}, fmt.Errorf("read the Chrome for Testing index: %w", err)
	}
	var idx cftIndex
	if err := json.Unmarshal(body, &idx); err != nil {
		return release{}, fmt.Errorf("read the Chrome for Testing index %s: not the expected JSON: %w", indexURL, err)
	}
	key := strings.ToUpper(channel[:1]) + channel[1:] // "Stable"
	ch, ok := idx.Channels[key]
	if !ok {
		return release{}, fmt.Errorf("the Chrome for Testing index %s has no %s channel (it has: %s)", indexURL, key, strings.Join(keys(idx.Channels), ", "))
	}
	if !cftVersion.MatchString(ch.Version) {
		return release{}, fmt.Errorf("the Chrome for Testing index %s gives %s the version %q, not a version number", indexURL, key, ch.Version)
	}
	offered := map[string]string{}
	var platforms []string
	for _, d := range ch.Downloads[product] {
		offered[d.Platform] = d.URL
		platforms = append(platforms, d.Platform)
	}
	for _, p := range cftPlatforms(goos, goarch) {
		if u, ok := offered[p]; ok {
			zipURL, err := downloadURL(indexURL, u, mirror)
			if err != nil {
				return release{}, err
			}
			return release{
				product: product, channel: channel, version: ch.Version, platform: p,
				url: zipURL, exe: cftExecutable(product, p),
			}, nil
		}
	}
	sort.Strings(platforms)
	return release{}, fmt.Errorf("no Chrome for Testing %s %s build for %s/%s (%s offers: %s); install your system's Chromium or Chrome instead",
		product, ch.Version, goos, goarch, key, strings.Join(platforms, ", "))
}

// downloadURL moves a URL on Google's bucket to the mirror and resolves a
// relative one against the index it came from.
func downloadURL(indexURL, u, mirror string) (string, error) {
	if mirror != "" && strings.HasPrefix(u, cftBucket+"/") {
		return mirror + strings.TrimPrefix(u, cftBucket), nil
	}
	base, err := url.Parse(indexURL)
	if err != nil {
		return "", err
	}
	ref, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("the index gives a bad download URL %q: %w", u, err)
	}
	return base.ResolveReference(ref).String(), nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package guard

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// A guarded world reaches the network through its guard, and nothing of
// the machine: no local file and no page of the browser's own. Those are
// not network requests (the guard never sees them), so the world's relays
// judge every URL its clients hand the browser (Page.navigate,
// Target.createTarget, Network.loadNetworkResource, a history entry's) and
// every file they hand a page, with the judges below. What a page asks by
// itself (a link, window.open, an iframe, location) Chromium already
// refuses a web page for file: and chrome: URLs (measured: Chromium 148,
// "Not allowed to load local resource").

// RuleDoors is the rule that shuts them, in refusals and the journal.
const RuleDoors = "a guarded world touches nothing of the machine"

// Doors a guarded world keeps shut.
var (
	// ErrLocalFile: a file of the machine (file:, filesystem:, a view of one).
	ErrLocalFile = errors.New("a guarded world reaches no local file")
	// ErrBrowserPage: a page of the browser's own (chrome:, devtools:,
	// about: but blank and srcdoc, an extension's), or any URL that is not
	// the network's.
	ErrBrowserPage = errors.New("a guarded world reaches no page of the browser's own, only network URLs")
	// ErrFileOutside: a file outside the world's folders handed to a page.
	ErrFileOutside = errors.New("a guarded world's pages get files only from its own folders")
)

// maxViewSourceDepth bounds view-source:view-source:…; Chromium itself
// refuses a nested view-source.
const maxViewSourceDepth = 1

// JudgeURL says whether a guarded world's client may have the browser load
// raw: nil, or an error wrapping ErrLocalFile or ErrBrowserPage. It reads
// the URL as the browser's parser does: tabs and newlines anywhere are
// dropped, leading and trailing spaces and control characters trimmed, the
// scheme's case ignored; what has no scheme the browser could load is
// refused. An empty URL is the blank page (Target.createTarget's default).
func JudgeURL(raw string) error {
	return judgeURL(raw, 0)
}

func judgeURL(raw string, depth int) error {
	s := cleanURL(raw)
	if s == "" {
		return nil
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !isScheme(s[:colon]) {
		return fmt.Errorf("%w: %q has no scheme of the network's", ErrBrowserPage, shortURL(raw))
	}
	scheme, rest := strings.ToLower(s[:colon]), s[colon+1:]
	switch scheme {
	case "http", "https", "ws", "wss", "data", "javascript":
		return nil
	case "about":
		what := strings.ToLower(rest)
		if i := strings.IndexAny(what, "?#"); i >= 0 {
			what = what[:i]
		}
		if what == "blank" || what == "srcdoc" {
			return nil
		}
	case "blob":
		// A blob's URL carries the origin that made it: a web page's, or
		// null (a data: page, a sandbox).
		if strings.HasPrefix(strings.ToLower(rest), "null/") {
			return nil
		}
		return judgeURL(rest, depth+1)
	case "view-source":
		if depth < maxViewSourceDepth {
			return judgeURL(rest, depth+1) // of a network page: what the page itself may load
		}
	case "file", "filesystem":
		return fmt.Errorf("%w: %s: URLs are the machine's", ErrLocalFile, scheme)
	}
	return fmt.Errorf("%w: %s: URLs are not the network's", ErrBrowserPage, scheme)
}

// cleanURL is raw as the browser's URL parser sees it before the scheme:
// without tabs and newlines, trimmed of spaces and control characters,
// percent-escapes before the first colon decoded (the parser would not
// take them as a scheme; the judge makes sure they hide none).
func cleanURL(raw string) string {
	s := strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, raw)
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	for range 3 {
		colon := strings.IndexByte(s, ':')
		if colon < 0 || !strings.Contains(s[:colon], "%") {
			break
		}
		head, err := url.PathUnescape(s[:colon])
		if err != nil {
			break
		}
		s = strings.TrimFunc(head, func(r rune) bool { return r <= ' ' }) + s[colon:]
	}
	return s
}

// isScheme says s is a URL scheme: a letter, then letters, digits, + - .
func isScheme(s string) bool {
	for i, c := range []byte(s) {
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// shortURL is a URL cut for an error message.
func shortURL(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// JudgeFile says whether a guarded world's client may hand a page the
// file at path: only one inside one of folders (symbolic links followed,
// as the browser would open it). nil, or an error wrapping ErrFileOutside.
func JudgeFile(path string, folders []string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%w: %q is not an absolute path", ErrFileOutside, path)
	}
	real := resolved(path)
	for _, dir := range folders {
		if dir == "" {
			continue
		}
		if inside(real, resolved(dir)) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s is not in %s", ErrFileOutside, path, strings.Join(nonEmpty(folders), ", "))
}

// resolved is path with its symbolic links followed as far as they exist
// (a file not yet made: its folder's).
func resolved(path string) string {
	path = filepath.Clean(path)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	dir, base := filepath.Split(path)
	if dir == path || dir == "" {
		return path
	}
	return filepath.Join(resolved(filepath.Clean(dir)), base)
}

// inside says path is dir or below it.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func nonEmpty(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return []string{"no folder (the world has none)"}
	}
	return out
}

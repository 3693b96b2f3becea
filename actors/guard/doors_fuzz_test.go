package guard

import (
	"net/url"
	"strings"
	"testing"
)

// allowedSchemes are the only schemes a guarded world's URL may have.
var allowedSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "data": true, "javascript": true, "about": true, "blob": true, "view-source": true}

// FuzzJudgeURL: whatever a URL hides behind case, whitespace, control
// characters or percent-escapes, the judge lets through only what reads as
// a network URL: a URL that Go's parser (after the browser's cleaning:
// tabs and newlines dropped, spaces and controls trimmed) reads with a
// scheme the world may not load is refused, and so is any URL naming a
// shut scheme in its first 40 cleaned, unescaped bytes.
func FuzzJudgeURL(f *testing.F) {
	for _, seed := range []string{
		"file:///etc/passwd", "FILE:///x", "file:/x", "%66ile:///x", " \tfile:///x", "view-source:view-source:https://a/",
		"view-source:file:///x", "chrome://version", "about:blank", "about:version", "https://example.com/", "data:,x",
		"blob:https://a/1", "blob:file:///1", "filesystem:https://a/t/x", "chrome-extension://a/b", "devtools://x", "\x00file:x",
		"javascript:1", "", "%25%36%36ile:///x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := JudgeURL(raw) // never panics
		cleaned := strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, raw)
		cleaned = strings.TrimFunc(cleaned, func(r rune) bool { return r <= ' ' })
		if u, perr := url.Parse(cleaned); perr == nil && u.Scheme != "" && !allowedSchemes[strings.ToLower(u.Scheme)] && err == nil {
			t.Fatalf("JudgeURL(%q) let through scheme %q", raw, u.Scheme)
		}
		head := strings.ToLower(cleaned)
		for range 3 {
			if un, uerr := url.PathUnescape(head); uerr == nil {
				head = un
			}
		}
		if len(head) > 40 {
			head = head[:40]
		}
		for _, shut := range []string{"file:", "filesystem:", "chrome:", "chrome-untrusted:", "devtools:", "chrome-extension:", "view-source:view-source:", "view-source:file:", "view-source:chrome"} {
			if strings.HasPrefix(strings.TrimSpace(head), shut) && err == nil {
				t.Fatalf("JudgeURL(%q) let through %q", raw, shut)
			}
		}
		if strings.HasPrefix(head, "about:") && err == nil {
			rest := strings.TrimPrefix(head, "about:")
			if !strings.HasPrefix(rest, "blank") && !strings.HasPrefix(rest, "srcdoc") {
				t.Fatalf("JudgeURL(%q) let through an about: page", raw)
			}
		}
	})
}

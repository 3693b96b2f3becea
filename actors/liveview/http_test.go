package liveview

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func serve(t *testing.T, method, path, origin, contentType, body string) *httptest.ResponseRecorder {
	t.Helper()
	a := New(Spec{Log: zerolog.New(zerolog.NewTestWriter(t))})
	req := httptest.NewRequest(method, "http://127.0.0.1:9222"+path, strings.NewReader(body))
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	a.Handler().ServeHTTP(w, req)
	return w
}

// The page and its files come from the binary; it cannot be framed, and it
// loads nothing from elsewhere.
func TestLiveViewPageIsEmbeddedAndCannotBeFramed(t *testing.T) {
	w := serve(t, http.MethodGet, "/ui", "", "", "")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/ui: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "http") {
		t.Errorf("CSP %q", csp)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(w.Body.String(), -1)
	if len(refs) < 2 {
		t.Fatalf("the page names %d files", len(refs))
	}
	for _, m := range refs {
		if !PublicAsset(m[1]) {
			t.Errorf("the page loads %s, not one of its embedded files", m[1])
		}
		if f := serve(t, http.MethodGet, m[1], "", "", ""); f.Code != http.StatusOK || f.Body.Len() == 0 {
			t.Errorf("%s: %d", m[1], f.Code)
		}
	}
	_ = fs.WalkDir(assets, "ui", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := assets.ReadFile(p)
		if regexp.MustCompile(`https?://[a-z]`).Match(b) {
			t.Errorf("%s names a remote URL: everything the page needs is embedded", p)
		}
		return nil
	})
	for path, public := range map[string]bool{"/ui/app.js": true, "/ui/playback.js": true, "/ui/style.css": true, "/ui": false, "/ui/": false, "/ui/ws": false,
		"/ui/request-human": false, "/ui/index.html": false, "/ui/../x": false, "/ui/nothing.js": false} {
		if PublicAsset(path) != public {
			t.Errorf("PublicAsset(%s) = %v", path, !public)
		}
	}
}

// The HTTP form of request_human refuses another page's Origin, anything
// but JSON, and what it cannot read, before anyone is asked.
func TestRequestHumanOverHTTPRefusesBeforeAsking(t *testing.T) {
	for _, c := range []struct {
		method, origin, ctype, body string
		want                        int
	}{
		{http.MethodPost, "http://evil.example", "application/json", `{"reason":"x"}`, http.StatusForbidden},
		{http.MethodPost, "http://127.0.0.1:9222.evil.example", "application/json", `{"reason":"x"}`, http.StatusForbidden},
		{http.MethodPost, "", "text/plain", `{"reason":"x"}`, http.StatusUnsupportedMediaType},
		{http.MethodPost, "", "application/x-www-form-urlencoded", `reason=x`, http.StatusUnsupportedMediaType},
		{http.MethodPost, "http://127.0.0.1:9222", "application/json", `{"reason":" "}`, http.StatusBadRequest},
		{http.MethodPost, "", "application/json", `{"reason":"x","timeout_s":0}`, http.StatusBadRequest},
		{http.MethodPost, "", "application/json", `{"reason":"x","context":"no/such"}`, http.StatusBadRequest},
		{http.MethodPost, "", "application/json", `{"reason":"x","other":1}`, http.StatusBadRequest},
		{http.MethodGet, "", "", "", http.StatusMethodNotAllowed},
	} {
		if w := serve(t, c.method, RequestPath, c.origin, c.ctype, c.body); w.Code != c.want {
			t.Errorf("%s %s origin %q %s: %d %s, want %d", c.method, c.body, c.origin, c.ctype, w.Code, w.Body, c.want)
		}
	}
	if w := serve(t, http.MethodGet, socketPath, "http://evil.example", "", ""); w.Code != http.StatusForbidden {
		t.Errorf("the websocket with a foreign Origin: %d", w.Code)
	}
}

// install_mirror.go serves browser downloads from loopback for tests of
// `cdpvisor install`: a mirror with a Chrome for Testing index, Chromium's
// LAST_CHANGE and zips built in the test, each of which can be made to
// fail (missing, truncated, stalled).
package actortest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Bucket is Google's Chrome for Testing bucket, which the index's URLs
// name; the installer moves them to the mirror.
const Bucket = "https://storage.googleapis.com/chrome-for-testing-public"

// ZipFile is one zip entry: a regular file (Mode 0o755 for an executable), a
// directory (Mode with fs.ModeDir) or a symbolic link to Link.
type ZipFile struct {
	Name string
	Body string
	Mode fs.FileMode
	Link string
}

// Zip builds a zip archive of files.
func Zip(t testing.TB, files ...ZipFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate}
		body := f.Body
		switch {
		case f.Link != "":
			h.SetMode(fs.ModeSymlink | 0o777)
			body = f.Link
		case f.Mode&fs.ModeDir != 0:
			h.SetMode(f.Mode)
			h.Method = zip.Store
		case f.Mode == 0:
			h.SetMode(0o644)
		default:
			h.SetMode(f.Mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// VersionScript is a stand-in browser executable: it answers --version like
// Chrome for Testing and otherwise runs next, a file beside it (the fake
// browser), or exits 0 when next is "".
func VersionScript(version, next string) string {
	run := "exit 0"
	if next != "" {
		// No dirname: the script must run with a PATH that has nothing on it.
		run = `exec "${0%/*}/` + next + `" "$@"`
	}
	return "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Google Chrome for Testing " + version + "'; exit 0; fi\n" + run + "\n"
}

// InstallMirror is a loopback HTTP server serving what the test puts on it, and
// counting requests per path.
type InstallMirror struct {
	URL string
	srv *httptest.Server

	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	hits   map[string]int
}

// NewInstallMirror starts a mirror, closed when the test ends.
func NewInstallMirror(t testing.TB) *InstallMirror {
	m := &InstallMirror{routes: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.hits[r.URL.Path]++
		h := m.routes[r.URL.Path]
		m.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	m.URL = m.srv.URL
	t.Cleanup(m.srv.Close)
	return m
}

// Handle routes path to h.
func (m *InstallMirror) Handle(path string, h http.HandlerFunc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.routes[path] = h
}

// Serve answers path with body and its length.
func (m *InstallMirror) Serve(path string, body []byte) {
	m.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
}

// Truncate answers path announcing body's full length but sending only the
// first keep bytes, as a dropped connection does; without a length when
// announce is false.
func (m *InstallMirror) Truncate(path string, body []byte, keep int, announce bool) {
	m.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		if announce {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		_, _ = w.Write(body[:keep])
	})
}

// Stall sends the first keep bytes of body and then nothing until the
// client gives up or the test ends.
func (m *InstallMirror) Stall(path string, body []byte, keep int) {
	m.Handle(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:keep])
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	})
}

// Hits is how many requests path received.
func (m *InstallMirror) Hits(path string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits[path]
}

// IndexPath is where the mirror serves the Chrome for Testing index.
const IndexPath = "/last-known-good-versions-with-downloads.json"

// MirrorZipPath is where Google's bucket (so the mirror too) keeps a product's
// zip: /131.0.6778.85/linux64/chrome-linux64.zip.
func MirrorZipPath(product, version, platform string) string {
	return "/" + version + "/" + platform + "/" + product + "-" + platform + ".zip"
}

// MirrorIndex is a last-known-good-versions-with-downloads.json: for each channel
// ("Stable", …) its version, with downloads of every product for every
// platform, on Google's bucket.
func MirrorIndex(versions map[string]string, platforms []string, products ...string) []byte {
	type dl struct {
		Platform string `json:"platform"`
		URL      string `json:"url"`
	}
	type channel struct {
		Channel   string          `json:"channel"`
		Version   string          `json:"version"`
		Revision  string          `json:"revision"`
		Downloads map[string][]dl `json:"downloads"`
	}
	idx := struct {
		Timestamp string             `json:"timestamp"`
		Channels  map[string]channel `json:"channels"`
	}{Timestamp: "2025-01-01T00:00:00.000Z", Channels: map[string]channel{}}
	for name, v := range versions {
		ch := channel{Channel: name, Version: v, Revision: "1368529", Downloads: map[string][]dl{}}
		for _, p := range append([]string{"chromedriver"}, products...) {
			for _, plat := range platforms {
				ch.Downloads[p] = append(ch.Downloads[p], dl{plat, Bucket + MirrorZipPath(p, v, plat)})
			}
		}
		idx.Channels[name] = ch
	}
	out, _ := json.MarshalIndent(idx, "", "  ")
	return out
}

// ServeRelease puts a channel's whole Chrome for Testing release on the
// mirror: the index naming version for channel (e.g. "Stable") and the zip
// of product for platform.
func (m *InstallMirror) ServeRelease(channel, version, product, platform string, zipBody []byte) {
	m.Serve(IndexPath, MirrorIndex(map[string]string{channel: version}, []string{platform}, product))
	m.Serve(MirrorZipPath(product, version, platform), zipBody)
}

// ChannelKey is the index's spelling of a channel: "stable" → "Stable".
func ChannelKey(ch string) string { return strings.ToUpper(ch[:1]) + ch[1:] }

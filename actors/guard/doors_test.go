package guard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestJudgeURLShutsTheMachinesDoors(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want error
	}{
		{"", nil},
		{"about:blank", nil},
		{"ABOUT:BLANK#x", nil},
		{"about:srcdoc", nil},
		{"https://example.com/a", nil},
		{"http://127.0.0.1:8080/", nil},
		{"wss://example.com/s", nil},
		{"data:text/html,<p>hi</p>", nil},
		{"javascript:void(0)", nil},
		{"blob:https://example.com/6c1b", nil},
		{"blob:null/6c1b", nil},
		{"view-source:https://example.com/", nil},
		{"file:///etc/passwd", ErrLocalFile},
		{"FILE:///etc/passwd", ErrLocalFile},
		{"file:/etc/passwd", ErrLocalFile},
		{"file:etc/passwd", ErrLocalFile},
		{"  file:///etc/passwd", ErrLocalFile},
		{"\x00\x1ffile:///etc/passwd", ErrLocalFile},
		{"fi\tle:///etc/passwd", ErrLocalFile},
		{"f\ni\rle:///etc/passwd", ErrLocalFile},
		{"%66ile:///etc/passwd", ErrLocalFile},
		{"%2566ile:///etc/passwd", ErrLocalFile},
		{"%46%49%4c%45:///etc/passwd", ErrLocalFile},
		{"file:\\\\host\\share", ErrLocalFile},
		{"filesystem:file:///persistent/x", ErrLocalFile},
		{"filesystem:https://example.com/temporary/x", ErrLocalFile},
		{"view-source:file:///etc/passwd", ErrLocalFile},
		{"VIEW-SOURCE:FILE:///etc/passwd", ErrLocalFile},
		{"blob:file:///6c1b", ErrLocalFile},
		{"view-source:view-source:https://example.com/", ErrBrowserPage},
		{"view-source:chrome://version", ErrBrowserPage},
		{"chrome://version", ErrBrowserPage},
		{"Chrome://settings", ErrBrowserPage},
		{"chrome-untrusted://print/", ErrBrowserPage},
		{"devtools://devtools/bundled/inspector.html", ErrBrowserPage},
		{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html", ErrBrowserPage},
		{"chrome-search://local-ntp/", ErrBrowserPage},
		{"about:version", ErrBrowserPage},
		{"about:blankx", ErrBrowserPage},
		{"about:settings", ErrBrowserPage},
		{"/etc/passwd", ErrBrowserPage},
		{"C:\\Windows\\win.ini", ErrBrowserPage},
		{"%zzile:///etc/passwd", ErrBrowserPage},
		{"\u00a0file:///etc/passwd", ErrBrowserPage},
		{"mailto:a@example.com", ErrBrowserPage},
	} {
		got := JudgeURL(tc.url)
		if tc.want == nil && got != nil || tc.want != nil && !errors.Is(got, tc.want) {
			t.Errorf("JudgeURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

func TestJudgeFileKeepsFilesInTheWorldsFolders(t *testing.T) {
	root := t.TempDir()
	world := filepath.Join(root, "world")
	other := filepath.Join(root, "other")
	for _, d := range []string{filepath.Join(world, "uploads"), other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(other, "secret.txt")
	if err := os.WriteFile(secret, []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A link inside the world's folder to a file outside it is outside.
	link := filepath.Join(world, "uploads", "link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(world, "uploads", "dirlink")
	if err := os.Symlink(other, dirLink); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path    string
		folders []string
		ok      bool
	}{
		{filepath.Join(world, "uploads", "cv.pdf"), []string{world}, true},
		{filepath.Join(world, "report.pdf"), []string{world}, true},
		{secret, []string{world}, false},
		{filepath.Join(world, "uploads", "..", "..", "other", "secret.txt"), []string{world}, false},
		{link, []string{world}, false},
		{filepath.Join(dirLink, "secret.txt"), []string{world}, false},
		{secret, []string{world, other}, true},
		{"uploads/cv.pdf", []string{world}, false},
		{world + "x/a", []string{world}, false},
		{secret, nil, false},
		{secret, []string{""}, false},
	} {
		err := JudgeFile(tc.path, tc.folders)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrFileOutside) {
			t.Errorf("JudgeFile(%q, %q) = %v, want ok=%v", tc.path, tc.folders, err, tc.ok)
		}
	}
}

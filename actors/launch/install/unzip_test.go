package install

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
)

func writeZip(t *testing.T, body []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.zip")
	if err := os.WriteFile(p, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A stored (uncompressed) entry with a changed byte decompresses fine: only
// the CRC-32 check catches it.
func TestUnzipChecksCRC(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "chrome-linux64/icudtl.dat", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte("the original bytes of the file"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	body := bytes.Replace(buf.Bytes(), []byte("original"), []byte("modified"), 1)
	err = unzip(writeZip(t, body), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), `"chrome-linux64/icudtl.dat" is damaged`) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("unzip = %v, want a checksum error", err)
	}
}

func TestUnzipLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	// A macOS framework's layout: Versions/Current -> A, and links through it.
	dir := t.TempDir()
	z := actortest.Zip(t,
		actortest.ZipFile{Name: "F.framework/Versions/A/F", Body: "lib", Mode: 0o755},
		actortest.ZipFile{Name: "F.framework/Versions/Current", Link: "A"},
		actortest.ZipFile{Name: "F.framework/F", Link: "Versions/Current/F"},
	)
	if err := unzip(writeZip(t, z), dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "F.framework", "F")); err != nil || string(b) != "lib" {
		t.Fatalf("reading through the links: %q, %v", b, err)
	}

	// A link placed under another link could point anywhere: refused.
	z = actortest.Zip(t,
		actortest.ZipFile{Name: "a/", Mode: os.ModeDir | 0o755},
		actortest.ZipFile{Name: "b", Link: "a"},
		actortest.ZipFile{Name: "b/c", Link: "x"},
	)
	err := unzip(writeZip(t, z), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), `"b/c"`) || !strings.Contains(err.Error(), "is not a directory") {
		t.Fatalf("link under a link: %v", err)
	}
}

func TestEntryPath(t *testing.T) {
	for name, want := range map[string]string{
		"chrome-linux64/chrome": "chrome-linux64/chrome",
		"./chrome-linux64/":     "chrome-linux64",
		"./":                    "",
		"a//b":                  "a/b",
	} {
		if got, err := entryPath(name); err != nil || got != want {
			t.Errorf("entryPath(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, bad := range []string{"../x", "a/../../x", "a/..", "/etc/passwd", `a\..\x`} {
		if got, err := entryPath(bad); err == nil {
			t.Errorf("entryPath(%q) = %q, want an error", bad, got)
		}
	}
}

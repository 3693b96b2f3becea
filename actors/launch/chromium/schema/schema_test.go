package schema

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// browserDir makes a browser's directory: an executable and its
// resources.pak.
func browserDir(t *testing.T, pak []byte) string {
	t.Helper()
	dir := t.TempDir()
	exe := filepath.Join(dir, "chromium")
	if err := os.WriteFile(exe, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "resources.pak"), pak, 0o644); err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestTheSchemaIsKeptPerExecutableWhileItIsTheSameFile(t *testing.T) {
	pak, doc := testPak(t, 5, brotliResource)
	exe := browserDir(t, pak)
	first, err := Of(exe, "")
	if err != nil || !bytes.Equal(first, doc) {
		t.Fatalf("Of: %d bytes, %v", len(first), err)
	}
	again, _ := Of(exe, "")
	if &again[0] != &first[0] {
		t.Error("the second request decompressed the schema again")
	}
	link := filepath.Join(t.TempDir(), "chromium-link") // as /usr/bin/chromium-browser links
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	if viaLink, _ := Of(link, ""); len(viaLink) == 0 || &viaLink[0] != &first[0] {
		t.Error("a link to the executable did not share its schema")
	}
	// An update: another pack, the executable rewritten.
	empty := buildPak(5, []entry{{1, []byte("x")}}, nil)
	if err := os.WriteFile(filepath.Join(filepath.Dir(exe), "resources.pak"), empty, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := Of(exe, ""); !errors.Is(err, ErrNoSchema) {
		t.Errorf("after the update: %v, want ErrNoSchema", err)
	}
	cache.Lock()
	n := len(cache.byExe)
	cache.Unlock()
	if n > 2 { // this test's, and at most one of another test's
		t.Errorf("%d executables cached", n)
	}
}

func TestNoSchemaSaysWhy(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "fakebrowser")
	if err := os.WriteFile(exe, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Of(exe, ""); !errors.Is(err, ErrNoSchema) || !bytes.Contains([]byte(err.Error()), []byte("resources.pak")) {
		t.Errorf("no pack: %v", err)
	}
	if _, err := Of(filepath.Join(dir, "gone"), ""); !errors.Is(err, ErrNoSchema) {
		t.Errorf("no executable: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "resources.pak"), []byte("not a pack at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, time.Now().Add(time.Hour), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := Of(exe, ""); !errors.Is(err, ErrNoSchema) || !errors.Is(err, ErrMalformedPak) {
		t.Errorf("a bad pack: %v, want ErrNoSchema and ErrMalformedPak", err)
	}
}

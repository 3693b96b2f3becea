package downloads

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

func TestDefaultRoot(t *testing.T) {
	t.Setenv("XDG_DOWNLOAD_DIR", "/srv/dl")
	if got, err := DefaultRoot(); err != nil || got != "/srv/dl/cdpvisor" {
		t.Errorf("with XDG_DOWNLOAD_DIR: %q %v", got, err)
	}
	t.Setenv("XDG_DOWNLOAD_DIR", "")
	t.Setenv("HOME", "/home/agent")
	if got, err := DefaultRoot(); err != nil || got != "/home/agent/Downloads/cdpvisor" {
		t.Errorf("without: %q %v", got, err)
	}
}

// ~ and relative paths resolve as a profile's do.
func TestResolve(t *testing.T) {
	t.Setenv("HOME", "/home/agent")
	wd, _ := os.Getwd()
	for in, want := range map[string]string{
		"~": "/home/agent", "~/dl": "/home/agent/dl", "dl/x": filepath.Join(wd, "dl/x"), "/abs/../dl": "/dl",
	} {
		if got, err := Resolve(in); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Resolve(" "); err == nil {
		t.Error("an empty dir was accepted")
	}
}

// Prepare creates a missing dir 0700 and refuses what is not a directory
// or cannot be created, naming it and what to do.
func TestPrepare(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b")
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", info, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the write check left %v", entries)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ dir, says string }{
		{file, "is not a directory"},
		{filepath.Join(file, "under"), "cannot be used: not a directory"},
	}
	if runtime.GOOS == "linux" { // nobody, root included, makes a directory in /proc
		cases = append(cases, struct{ dir, says string }{"/proc/cdpvisor-downloads", "does not exist and cannot be created"})
	}
	for _, c := range cases {
		err := Prepare(c.dir)
		if err == nil || !strings.Contains(err.Error(), c.dir) || !strings.Contains(err.Error(), c.says) || !namesDownloadDir(err) {
			t.Errorf("Prepare(%s): %v", c.dir, err)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"report.pdf": "report.pdf", "": "download", "..": "download", "a/b\\c": "a_b_c", " x ": "x"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		name string
		n    int
		want string
	}{{"a.txt", 0, "a.txt"}, {"a.txt", 2, "a (2).txt"}, {".bashrc", 1, ".bashrc (1)"}, {"noext", 1, "noext (1)"}} {
		if got := numbered(c.name, c.n); got != c.want {
			t.Errorf("numbered(%q, %d) = %q, want %q", c.name, c.n, got, c.want)
		}
	}
}

// moveFree never replaces a file that took the wanted name meanwhile.
func TestMoveFree(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "guid")
	for p, text := range map[string]string{from: "new", filepath.Join(dir, "a (1).txt"): "other"} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	to, err := moveFree(from, filepath.Join(dir, "a (1).txt"), dir, "a.txt")
	if err != nil || to != filepath.Join(dir, "a.txt") {
		t.Fatalf("moved to %s: %v", to, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a (1).txt")); string(b) != "other" {
		t.Errorf("the other file became %q", b)
	}
	if b, _ := os.ReadFile(to); string(b) != "new" {
		t.Errorf("the moved file is %q", b)
	}
	if _, err := os.Stat(from); !os.IsNotExist(err) {
		t.Errorf("the guid file stays: %v", err)
	}
}

// namesDownloadDir: the error's fixes say to give another download dir.
func namesDownloadDir(err error) bool {
	for _, f := range remedy.Fixes(err) {
		if f.Setting == remedy.DownloadDir {
			return true
		}
	}
	return false
}

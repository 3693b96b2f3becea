package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileDirRefusesWhatChromiumWouldReplaceWithTheRealProfile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ProfileDir(file); err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a regular file as profile: %v, want a refusal naming it", err)
	}
	if _, err := ProfileDir(" "); err == nil {
		t.Fatal("an empty profile path was accepted")
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "read-only")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		if _, err := ProfileDir(ro); err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("a read-only directory: %v", err)
		}
	}
}

func TestProfileDirExpandsHomeAndMakesPathsAbsolute(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for in, want := range map[string]string{"~": home, "~/profiles/a": filepath.Join(home, "profiles", "a")} {
		got, err := ProfileDir(in)
		if err != nil || got != want {
			t.Fatalf("ProfileDir(%q) = %q, %v; want %q", in, got, err, want)
		}
		if info, err := os.Stat(got); err != nil || !info.IsDir() {
			t.Fatalf("%s was not created: %v", got, err)
		}
	}
	t.Chdir(home)
	got, err := ProfileDir("rel/p")
	if err != nil || got != filepath.Join(home, "rel", "p") {
		t.Fatalf("a relative path: %q, %v", got, err)
	}
	if info, _ := os.Stat(got); info.Mode().Perm() != 0o700 {
		t.Fatalf("created with mode %v, want 0700", info.Mode().Perm())
	}
}

package seedflags

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/storagestate"
)

// The flags read into a seed: the file as given, the origins in a
// browser's form, --origin repeatable and comma-separated.
func TestRequestReadsTheSeed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	state := `{"cookies":[],"origins":[{"origin":"https://a.test","localStorage":[]}]}`
	os.WriteFile(file, []byte(state), 0o600)
	var f Flags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f.Register(fs)
	err := fs.Parse([]string{"--storage-state", file, "--from-user-browser=https://A.test:443/, http://b.test:8080",
		"--from-world", "alice", "--origin", "https://c.test", "--origin=https://d.test,https://e.test"})
	if err != nil {
		t.Fatal(err)
	}
	req, err := f.Request()
	if err != nil || string(req.StorageState) != state || req.FromWorld != "alice" ||
		!slices.Equal(req.FromUserBrowser, []string{"https://a.test", "http://b.test:8080"}) ||
		!slices.Equal(req.Origins, []string{"https://c.test", "https://d.test", "https://e.test"}) {
		t.Fatalf("Request: %+v %v", req, err)
	}
}

// What is not a seed is refused saying what was expected.
func TestRequestRefuses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"cookies":[]}`), 0o600)
	for _, c := range []struct {
		f    Flags
		is   error
		want string
	}{
		{Flags{StorageState: bad}, storagestate.ErrNotStorageState, "expected Playwright's storage state"},
		{Flags{FromUserBrowser: "a.test"}, ErrNotSeed, "not an http or https origin"},
		{Flags{FromUserBrowser: " , "}, ErrNotSeed, "names no origin"},
		{Flags{Origins: originList{"https://a.test"}}, ErrNotSeed, "give --from-world NAME"},
		{Flags{FromWorld: ".."}, ErrNotSeed, "--from-world"},
		{Flags{FromWorld: "a", Origins: originList{"https://a.test/path"}}, ErrNotSeed, "--origin"},
	} {
		_, err := c.f.Request()
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %v saying %q", c.f, err, c.is, c.want)
		}
	}
}

package seedflags

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// --proxy is checked with the policy before anything is sent: a URL that
// cannot be used is refused naming the flag and the accepted forms, never
// the password; a good one is sent as given.
func TestPolicyRequestChecksTheProxy(t *testing.T) {
	const pass = "flag-pass-61b0"
	for in, want := range map[string]string{
		"socks5://u:" + pass + "@127.0.0.1:1080": "",
		"http://127.0.0.1:3128":                  "",
		"https://u:" + pass + "@h:443":           `--proxy: not an upstream proxy URL: scheme "https" is not supported; want http://[user:pass@]host:port or socks5://[user:pass@]host:port`,
		"http://u:" + pass + "@h":                "--proxy: not an upstream proxy URL: h has no port",
	} {
		var p Policy
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.Register(fs)
		if err := fs.Parse([]string{"--proxy", in}); err != nil {
			t.Fatal(err)
		}
		req, err := p.Request()
		switch {
		case want == "" && (err != nil || req.Proxy != in || !p.Given() || req.Guarded()):
			t.Errorf("%s: %+v %v", in, req, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), pass)):
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// --allow-file is resolved here, as every path a user gives (~ the home, a
// relative path the working directory's), and must be an existing folder;
// it and --replace are refused without a policy, before anything is sent.
func TestPolicyRequestResolvesTheFolders(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Chdir(work)
	for _, dir := range []string{filepath.Join(home, "up"), filepath.Join(work, "rel")} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	parse := func(args ...string) (*Policy, worldapi.Policy, error) {
		t.Helper()
		var p Policy
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		req, err := p.Request()
		return &p, req, err
	}
	p, req, err := parse("--deny-host", "a.example", "--allow-file", "~/up", "--allow-file", "rel", "--replace")
	if err != nil || !p.Given() || !p.Replace || !slices.Equal(req.AllowFiles, []string{filepath.Join(home, "up"), filepath.Join(work, "rel")}) {
		t.Fatalf("folders: %+v %v", req, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--allow-file", "rel"}, "--allow-file needs --allow-host, --deny-host or --proxy"},
		{[]string{"--replace"}, "--replace replaces a kept world's network policy with the one given"},
		{[]string{"--deny-host", "a.example", "--allow-file", "none"}, "--allow-file none: " + filepath.Join(work, "none") + " does not exist; make the folder first"},
		{[]string{"--deny-host", "a.example", "--allow-file", "file"}, "--allow-file file: " + filepath.Join(work, "file") + " is not a folder"},
		{[]string{"--deny-host", "a.example", "--allow-file", " "}, "--allow-file is empty"},
	} {
		if _, _, err := parse(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
}

package main

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors"
	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
)

// The command-line hints of the errors the actors make, as the tools say
// them. The errors come from the actors themselves: a reworded message
// that no longer matches a rewrite shows here.
func TestMCPErrorWordsForActorErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	_, inUse := proxy.Listen(port)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, emptyProfile := launch.ProfileDir("")
	_, fileProfile := launch.ProfileDir(file)
	found := []launch.Browser{{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium"}}
	cases := []struct {
		err  error
		want string
	}{
		{inUse, "is in use; pass another port, or leave port out for a free one"},
		{emptyProfile, "(user_data_dir) is empty; leave it out"},
		{fileProfile, "leave user_data_dir out"},
		{chromium.CheckExtraArgs([]string{"--user-data-dir=/a b"}), `the browser switch "user-data-dir" in args is cdpvisor's to set: pass the profile as user_data_dir`},
		{chromium.CheckExtraArgs([]string{"--remote-debugging-port=9"}), "(see coordinator_status)"},
		{chromium.CheckExtraArgs([]string{"--remote-debugging-address=0.0.0.0"}), `"remote-debugging-address" in args`},
		{chromium.CheckExtraArgs([]string{"--remote-debugging-pipe"}), `"remote-debugging-pipe" in args`},
		{&detect.NotFoundError{Want: "edge", Found: found, GOOS: "linux"}, `pass browser: "chromium", or install`},
		{&detect.NotFoundError{GOOS: "linux", Searched: []string{"/usr/bin"}}, "or pass browser: the path of a browser executable"},
		{&launch.Error{Cause: launch.CauseNotFound, Path: "/x"}, "check the browser argument, or call coordinator_list_browsers"},
		{&launch.Error{Cause: launch.CauseProfileInUse, Path: "/x"}, "pass another user_data_dir"},
		{&launch.Error{Cause: launch.CauseRootNoSandbox, Path: "/x"}, `pass args: ["--no-sandbox"]`},
		{&launch.Error{Cause: launch.CauseNoDisplay, Path: "/x"}, "pass headless: true"},
		{&launch.Error{Cause: launch.CauseTimedOut, Path: "/x"}, "did not become ready"},
		{downloads.Prepare(file), "is not a directory; pass another download_dir"},
		{downloads.Prepare(filepath.Join(file, "under")), "not a directory; pass another download_dir"},
		// Safety net: a flag no rewrite knows still does not reach the model.
		{errors.New("try --max-instances 5 or --browser-arg=--x"), "the coordinator's max-instances setting (chosen when it started) 5 or args=--x"},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("no error for %q", c.want)
			continue
		}
		got := mcpWords(c.err.Error())
		if !strings.Contains(got, c.want) {
			t.Errorf("%q\nbecame %q\nwant it to say %q", c.err, got, c.want)
		}
		// A browser switch the model passes in args may be named; a flag may not.
		rest := strings.NewReplacer(`"--no-sandbox"`, "", "args=--x", "").Replace(got)
		if strings.Contains(rest, "--") {
			t.Errorf("%q\nbecame %q: it still names a flag", c.err, got)
		}
	}
	// The browser's stderr, quoted in a launch error, stays as it was.
	le := &launch.Error{Cause: launch.CauseExitedEarly, Path: "/x", Stderr: []string{"Running as root without --no-sandbox --headless"}}
	if got := mcpWords(le.Error()); !strings.HasSuffix(got, "Running as root without --no-sandbox --headless") {
		t.Errorf("stderr lines rewritten: %q", got)
	}
}

// A full instance port range, as browser_instance new says it.
func TestMCPInstancePortRangeFull(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	h := newMCPHarnessOn(t, launch.Options{
		Browser:  launch.Browser{Name: "Fake", Type: launch.Chromium, Path: actortest.FakeBrowser(t)},
		Headless: true, StopGrace: time.Second,
	}, func(cfg *actors.CoordinatorConfig) { cfg.InstancePorts = actors.PortRange{Lo: port, Hi: port} })
	text, _ := h.call("browser_instance", map[string]any{"action": "new"}, true)
	if !strings.Contains(text, "no free port left in the coordinator's instance port range") || !strings.Contains(text, "pass port") {
		t.Fatalf("%q", text)
	}
}

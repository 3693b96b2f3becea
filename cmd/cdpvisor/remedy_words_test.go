package main

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/chromium"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/firefox"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/cmd/cdpvisor/internal/remedywords"
)

// Every typed remedy, from the errors the actors make: the command line
// names the flag, the MCP server the tool argument (or, for what only the
// coordinator's start decides, its environment), and never a flag.
func TestEveryRemedyNamesAFlagOnTheCommandLineAndAnArgumentInMCP(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, inUse := proxy.Listen(busy.Addr().(*net.TCPAddr).Port)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, emptyProfile := launch.ProfileDir("")
	_, fileProfile := launch.ProfileDir(file)
	_, emptyDownloads := downloads.Resolve(" ")
	found := []launch.Browser{{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium"}}
	fix := func(f ...remedy.Fix) error { return remedy.With(errors.New("problem"), f...) }
	cases := []struct {
		name     string
		err      error
		cli, mcp string
	}{
		{"port in use", inUse, "choose another with --port (0 picks a free one), or stop what listens there",
			"pass another port, or leave port out for a free one, or stop what listens there"},
		{"empty profile", emptyProfile, "leave --user-data-dir out for a fresh temporary profile", "leave user_data_dir out for a fresh temporary profile"},
		{"profile is a file", fileProfile, "give a directory with --user-data-dir", "pass a directory as user_data_dir"},
		{"profile switch", chromium.CheckExtraArgs([]string{"--user-data-dir=/a b"}),
			"give the profile with --user-data-dir instead", "pass the profile as user_data_dir instead"},
		{"port switch", chromium.CheckExtraArgs([]string{"--remote-debugging-port=9"}),
			"clients connect to the stable endpoint (--port)", "clients connect to the stable endpoint (see coordinator_status)"},
		{"firefox profile name", firefox.CheckArgs([]string{"-P", "x"}),
			"give the profile directory with --user-data-dir (a directory, not a profile name)",
			"pass the profile directory as user_data_dir (a directory, not a profile name)"},
		{"another browser is installed", &detect.NotFoundError{Want: "edge", Found: found, GOOS: "linux"},
			"use --browser chromium, or install Microsoft Edge", `pass browser: "chromium", or install Microsoft Edge`},
		{"no browser", &detect.NotFoundError{GOOS: "linux", Searched: []string{"/usr/bin"}},
			"give the path of a browser executable with --browser", "pass the path of a browser executable as browser"},
		{"executable missing", &launch.Error{Cause: launch.CauseNotFound, Path: "/x"},
			"choose another with --browser, or run `cdpvisor browsers`", "pass another browser, or call coordinator_list_browsers"},
		{"profile in use", &launch.Error{Cause: launch.CauseProfileInUse, Path: "/x"},
			"close that browser, or choose another with --user-data-dir", "close that browser, or pass another user_data_dir"},
		{"root without sandbox", &launch.Error{Cause: launch.CauseRootNoSandbox, Path: "/x"},
			"pass --browser-arg=--no-sandbox", `pass args: ["--no-sandbox"]`},
		{"no display", &launch.Error{Cause: launch.CauseNoDisplay, Path: "/x"}, "use --headless, or set $DISPLAY", "pass headless: true, or set $DISPLAY"},
		{"download dir is a file", downloads.Prepare(file),
			"give a directory with --download-dir (or CDPVISOR_DOWNLOAD_DIR)", "pass a directory as download_dir"},
		{"download dir unusable", downloads.Prepare(filepath.Join(file, "under")),
			"choose another with --download-dir (or CDPVISOR_DOWNLOAD_DIR)", "pass another download_dir"},
		{"empty download dir", emptyDownloads, "leave --download-dir out for the default", "leave download_dir out for the default"},
		{"state dir is a file", state.PrepareDir(file), "choose another with --state-dir (or CDPVISOR_STATE_DIR)",
			"change the coordinator's state-dir setting (chosen when it started)"},
		// Fixes only a running coordinator's instances reach (the MCP tests
		// reach them for real): said by each edge all the same.
		{"another family", fix(remedy.Fix{Do: remedy.NewInstance, Value: "firefox"}, remedy.Fix{Do: remedy.AtStart, Setting: remedy.Browser, Value: "firefox"}),
			`create an instance of its own with the MCP tool browser_instance {"action": "new", "browser": "firefox"}, or start the coordinator with --browser firefox`,
			`create an instance of its own with browser_instance {"action": "new", "browser": "firefox"}, or have your MCP host start the coordinator with CDPVISOR_BROWSER=firefox in its environment`},
		{"instance limit", fix(remedy.Fix{Do: remedy.CloseInstance}, remedy.Fix{Do: remedy.AtStart, Setting: remedy.MaxInstances}),
			"close one with the MCP tool browser_instance close, or start the coordinator with a higher --max-instances",
			"close one with browser_instance close (id: an instance id or port), then call new again, or raise the coordinator's max-instances setting (chosen when it started) (CDPVISOR_MAX_INSTANCES in the MCP host's environment)"},
		{"world limit", fix(worlds.FixesFull...),
			"close one with `cdpvisor world close NAME` (`cdpvisor world list` shows them), or start the coordinator with a higher --max-worlds",
			"close one with browser_context close (name: one of browser_context list's open worlds), or raise the coordinator's max-worlds setting (chosen when it started) (CDPVISOR_MAX_WORLDS in the MCP host's environment)"},
		{"instance ports full", fix(remedy.Fix{Do: remedy.ChooseAnother, Setting: remedy.Port, Text: "outside that range"}),
			"choose another with --port (0 picks a free one) outside that range", "pass another port outside that range"},
		{"origin", fix(remedy.Fix{Do: remedy.AtStart, Setting: remedy.AllowOrigin, Value: "http://a.test", Text: "to allow it"}),
			"start the coordinator with --allow-origin http://a.test to allow it",
			"have your MCP host start the coordinator with CDPVISOR_ALLOW_ORIGIN=http://a.test in its environment to allow it"},
		{"kept policy", fix(worlds.FixReplace), "use --replace to replace the kept one", "pass replace: true to replace the kept one"},
		{"unknown instance", fix(remedy.Fix{Do: remedy.ChooseAnother, Setting: remedy.Instance, Text: "(one of them)"},
			remedy.Fix{Do: remedy.LeaveOut, Setting: remedy.Instance, Text: "for the default one"}),
			"choose another with --instance (one of them), or leave --instance out for the default one",
			"pass another instance (one of them), or leave instance out for the default one"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(remedy.Fixes(c.err)) == 0 {
				t.Fatalf("%v: no fixes", c.err)
			}
			if got := remedy.Explain(c.err, remedywords.CommandLine); !strings.Contains(got, "; "+c.cli) && !strings.Contains(got, ", or "+c.cli) {
				t.Errorf("command line: %q\nwant it to say %q", got, c.cli)
			}
			if got := remedy.Explain(c.err, remedywords.MCP); !strings.Contains(got, "; "+c.mcp) && !strings.Contains(got, ", or "+c.mcp) {
				t.Errorf("MCP: %q\nwant it to say %q", got, c.mcp)
			}
			// The browser switch a model passes in args may be named; a flag may not.
			if said := strings.ReplaceAll(remedy.Said(c.err, remedywords.MCP), `"--no-sandbox"`, ""); strings.Contains(said, "--") {
				t.Errorf("MCP names a flag: %q", said)
			}
		})
	}
}

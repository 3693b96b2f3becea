package actors

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest/served"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// argsRecorder is a stand-in browser named name (its name gives its
// family): it writes its arguments to a file and exits, so a launch fails
// but shows what it was given.
func argsRecorder(t *testing.T, name string) (exe, argsFile string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	dir := t.TempDir()
	exe, argsFile = filepath.Join(dir, name), filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + argsFile + "'\nexit 3\n"
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, argsFile
}

// launchArgs makes inst's browser try to start and returns what it was given.
func launchArgs(t *testing.T, inst *Instance, argsFile string) []string {
	t.Helper()
	if _, err := inst.Browser.EnsureRunning(served.Context(t)); err == nil {
		t.Fatal("the recorder started")
	}
	data, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatalf("the browser was not run: %v", err)
	}
	return strings.Fields(string(data))
}

// --browser-arg values are the coordinator's browser family's flags: an
// instance of the other family gets none of them; one of the same family
// gets them all.
func TestNewInstanceTakesBrowserArgsOfItsOwnFamilyOnly(t *testing.T) {
	firefox, firefoxArgs := argsRecorder(t, "firefox")
	chromium, chromiumArgs := argsRecorder(t, "chromium")
	launch := served.FakeLaunch(t, "--lang=de", "--window-size=800,600")
	launch.ReadyTimeout = time.Second
	c := runCoordinator(t, CoordinatorConfig{Launch: launch})
	ctx := served.Context(t)

	ff, err := c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: &firefox}})
	if err != nil {
		t.Fatal(err)
	}
	if got := launchArgs(t, ff, firefoxArgs); slices.Contains(got, "--lang=de") || slices.Contains(got, "--window-size=800,600") {
		t.Errorf("a Firefox instance of a Chromium coordinator got its --browser-arg values: %q", got)
	}
	same, err := c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: &chromium}})
	if err != nil {
		t.Fatal(err)
	}
	if got := launchArgs(t, same, chromiumArgs); !slices.Contains(got, "--lang=de") || !slices.Contains(got, "--window-size=800,600") {
		t.Errorf("a Chromium instance of a Chromium coordinator lacks its --browser-arg values: %q", got)
	}
}

func TestNewInstanceOfAFirefoxCoordinatorKeepsFirefoxArgsFromChromium(t *testing.T) {
	firefox, firefoxArgs := argsRecorder(t, "firefox")
	chromium, chromiumArgs := argsRecorder(t, "chromium")
	b, err := detect.Resolve(detect.HostSystem(), firefox)
	if err != nil || b.Protocol() != launch.ProtocolBiDi {
		t.Fatalf("the recorder resolves as %+v, %v; want a Firefox", b, err)
	}
	c := runCoordinator(t, CoordinatorConfig{Launch: launch.Options{Browser: b, Headless: true, ExtraArgs: []string{"--kiosk"}, ReadyTimeout: time.Second}})
	ctx := served.Context(t)
	cr, err := c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: &chromium}})
	if err != nil {
		t.Fatal(err)
	}
	if got := launchArgs(t, cr, chromiumArgs); slices.Contains(got, "--kiosk") {
		t.Errorf("a Chromium instance of a Firefox coordinator got its --browser-arg values: %q", got)
	}
	ff, err := c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: &firefox}})
	if err != nil {
		t.Fatal(err)
	}
	if got := launchArgs(t, ff, firefoxArgs); !slices.Contains(got, "--kiosk") {
		t.Errorf("a Firefox instance of a Firefox coordinator lacks its --browser-arg values: %q", got)
	}
}

// An endpoint keeps its protocol: a browser of the other family is refused
// before anything stops, naming what to do; the state files say each
// instance's protocol.
func TestLaunchRefusesABrowserOfTheOtherFamily(t *testing.T) {
	firefox, _ := argsRecorder(t, "firefox")
	c := runCoordinator(t, CoordinatorConfig{})
	ctx := served.Context(t)
	before, err := c.LaunchBrowser(ctx, "", browser.Change{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if before.Protocol != launch.ProtocolCDP || before.StableWS != c.Default().Proxy.BrowserWS() || before.Stable != c.Default().Proxy.Endpoint() {
		t.Errorf("launch answer %+v: want the default endpoint, over CDP", before)
	}
	_, err = c.LaunchBrowser(ctx, "", browser.Change{Browser: &firefox}, nil)
	if !errors.Is(err, ErrFamilySwitch) {
		t.Fatalf("Firefox on the Chromium default instance: %v, want ErrFamilySwitch", err)
	}
	for _, want := range []string{c.Default().ID, "serves CDP", "speaks WebDriver BiDi"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if fixes := remedy.Fixes(err); len(fixes) != 2 ||
		fixes[0].Do != remedy.NewInstance || fixes[0].Value != firefox || !strings.Contains(fixes[0].Text, "/session") ||
		fixes[1] != (remedy.Fix{Do: remedy.AtStart, Setting: remedy.Browser, Value: "firefox", Text: "to make that the default instance's browser"}) {
		t.Errorf("fixes %+v: want an instance of its own, or the coordinator started with Firefox", fixes)
	}
	if st, _ := c.Default().Browser.Status(ctx); st.Pid != before.Pid || st.Generation != before.Generation {
		t.Errorf("the refused switch touched the browser: pid %d gen %d, was %d gen %d", st.Pid, st.Generation, before.Pid, before.Generation)
	}

	ff, err := c.NewInstance(ctx, InstanceRequest{Change: browser.Change{Browser: &firefox}})
	if err != nil {
		t.Fatal(err)
	}
	fake := c.cfg.Launch.Browser.Path
	_, err = c.LaunchBrowser(ctx, ff.ID, browser.Change{Browser: &fake}, nil)
	if !errors.Is(err, ErrFamilySwitch) || !strings.Contains(err.Error(), "serves WebDriver BiDi (Firefox) at "+ff.Proxy.BrowserWS()) ||
		len(remedy.Fixes(err)) != 1 {
		t.Errorf("Chromium on a Firefox instance (not the default): %v", err)
	}

	s, err := state.Read(c.StatePath())
	if err != nil || len(s.Instances) != 2 {
		t.Fatalf("state file: %+v, %v", s, err)
	}
	if s.Protocol != "cdp" || s.Instances[0].Protocol != "cdp" || s.Instances[1].Protocol != "bidi" || s.Instances[1].WS != ff.Proxy.BrowserWS() {
		t.Errorf("state file protocols: %q, %+v", s.Protocol, s.Instances)
	}
}

// A browser of the other family than the default instance's goes to an
// instance of its own: made the first time, used again after; the answer
// says what the default endpoint keeps serving. A launch that fails there
// still names the instance it went to.
func TestLaunchOfFamilyGoesToAnInstanceOfItsOwn(t *testing.T) {
	firefox, _ := argsRecorder(t, "firefox")
	b, err := detect.Resolve(detect.HostSystem(), firefox)
	if err != nil || b.Protocol() != launch.ProtocolBiDi {
		t.Fatalf("the recorder resolves as %+v, %v; want a Firefox", b, err)
	}
	c := runCoordinator(t, CoordinatorConfig{Launch: launch.Options{Browser: b, Headless: true, ReadyTimeout: time.Second}})
	ctx := served.Context(t)
	fake := served.FakeLaunch(t).Browser.Path
	wantDefault := Serving{Instance: c.Default().ID, Protocol: launch.ProtocolBiDi, URL: c.Default().Proxy.BrowserWS()}
	var first string
	for i := range 2 {
		fl, err := c.LaunchOfFamily(ctx, browser.Change{Browser: &fake}, nil)
		if err != nil {
			t.Fatalf("launch %d: %v", i+1, err)
		}
		if fl.Default != wantDefault || fl.Created != (i == 0) || fl.Instance == c.Default().ID ||
			fl.Launched.Instance != fl.Instance || fl.Launched.Protocol != launch.ProtocolCDP || fl.Launched.Pid == 0 {
			t.Fatalf("launch %d: %+v; want a CDP launch on an instance of its own (created the first time), the default serving %+v", i+1, fl, wantDefault)
		}
		if i == 0 {
			first = fl.Instance
		} else if fl.Instance != first {
			t.Fatalf("the second launch went to %s, want %s again", fl.Instance, first)
		}
	}

	c = runCoordinator(t, CoordinatorConfig{})
	fl, err := c.LaunchOfFamily(ctx, browser.Change{Browser: &firefox}, nil)
	if err == nil || fl.Instance == "" || fl.Instance == c.Default().ID || !fl.Created {
		t.Fatalf("a Firefox that exits at once: %+v, %v; want the error and the instance made for it", fl, err)
	}
	if fl.Default.Protocol != launch.ProtocolCDP || fl.Default.URL != c.Default().Proxy.Endpoint() {
		t.Errorf("the default serves %+v, want CDP at %s", fl.Default, c.Default().Proxy.Endpoint())
	}
}

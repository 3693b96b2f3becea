package firefox

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
)

func TestFirefoxArgs(t *testing.T) {
	got := args(launch.Options{Headless: true, ExtraArgs: []string{"--kiosk", "https://example.test/"}}, "/tmp/p")
	want := []string{"--remote-debugging-port=0", "--profile", "/tmp/p", "--no-remote", "--headless", "--kiosk", "https://example.test/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headless args = %q, want %q", got, want)
	}
	got = args(launch.Options{DebugPort: 9333}, "/tmp/p")
	want = []string{"--remote-debugging-port=9333", "--profile", "/tmp/p", "--no-remote"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headed args on a chosen port = %q, want %q", got, want)
	}
}

func TestCheckFirefoxArgsRefusesWhatCdpvisorSets(t *testing.T) {
	for arg, name := range map[string]string{"-profile": "profile", "--profile": "profile", "--PROFILE=/x": "PROFILE", "-P": "P",
		"-ProfileManager": "ProfileManager", "--remote-debugging-port=9222": "remote-debugging-port"} {
		err := CheckArgs([]string{"--kiosk", arg})
		if err == nil || !strings.Contains(err.Error(), `the browser switch "`+name+`" is cdpvisor's to set`) {
			t.Errorf("%s: %v, want it refused by name", arg, err)
		}
		// What to do instead is data: the profile is cdpvisor's own setting.
		fixes := remedy.Fixes(err)
		if len(fixes) != 1 || (fixes[0].Setting != remedy.UserDataDir && fixes[0].Do != remedy.UseEndpoint) {
			t.Errorf("%s: fixes %+v, want the profile setting or the stable endpoint", arg, fixes)
		}
	}
	if err := CheckArgs([]string{"--kiosk", "-private-window", "--profile-directory=x", "https://example.test/", "-"}); err != nil {
		t.Errorf("harmless arguments refused: %v", err)
	}
}

func TestUserJSWritesEveryPrefAsJavaScript(t *testing.T) {
	js := userJS([]firefoxPref{boolPref("a.b", false), intPref("c", -1), stringPref("d", `say "hi"\`)})
	for _, want := range []string{
		"user_pref(\"a.b\", false);\n",
		"user_pref(\"c\", -1);\n",
		"user_pref(\"d\", \"say \\\"hi\\\"\\\\\");\n",
	} {
		if !strings.Contains(js, want) {
			t.Errorf("user.js lacks %q:\n%s", want, js)
		}
	}
}

func TestPrepareFirefoxProfile(t *testing.T) {
	temp := filepath.Join(t.TempDir(), "profile")
	if err := prepareProfile(temp, true); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(temp, "user.js"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "user_pref("); got != len(firefoxPrefs) {
		t.Errorf("user.js has %d prefs, want %d", got, len(firefoxPrefs))
	}
	for _, want := range []string{`user_pref("remote.active-protocols", 1);`, `user_pref("browser.sessionstore.resume_from_crash", false);`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("user.js lacks %s", want)
		}
	}
	// A user's profile is theirs: nothing is written to it.
	mine := t.TempDir()
	if err := prepareProfile(mine, false); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(mine); len(entries) != 0 {
		t.Errorf("wrote %d entries into the user's profile", len(entries))
	}
}

func TestClassifyFirefoxStderr(t *testing.T) {
	cases := map[string]launch.Cause{
		"Firefox is already running, but is not responding. To use Firefox, you must first close the existing Firefox process, restart your device, or use a different profile.": launch.CauseProfileInUse,
		"Error: no DISPLAY environment variable specified": launch.CauseNoDisplay,
	}
	for line, want := range cases {
		if got, ok := classifyStderr([]string{"noise", line}); !ok || got != want {
			t.Errorf("%q: got %q %v, want %q", line, got, ok, want)
		}
	}
	if _, ok := classifyStderr([]string{"console.warn: SearchSettings: \"get: No settings file exists, new profile?\""}); ok {
		t.Error("noise classified")
	}
}

func TestBiDiLineIsAWholeLine(t *testing.T) {
	if m := bidiLine.FindStringSubmatch("WebDriver BiDi listening on ws://127.0.0.1:40123"); m == nil || m[1] != "ws://127.0.0.1:40123" {
		t.Fatalf("the BiDi line gave %q", m)
	}
	for _, l := range []string{"1700000000000\tRemoteAgent\tINFO\tWebDriver BiDi listening on ws://127.0.0.1:1", "WebDriver BiDi listening on ws://a b"} {
		if bidiLine.MatchString(l) {
			t.Errorf("matched %q; only the whole line counts", l)
		}
	}
}

package mcptools

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actortest"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// coordinator_launch_browser never changes an endpoint's protocol. Firefox
// asked of the Chromium default instance ({type: "firefox"}) runs behind an
// endpoint of its own, made once and used again; naming the default
// instance explicitly is refused with what to do; the browser running on
// the default instance is left alone either way.
func TestMCPLaunchFirefoxFromAChromiumDefault(t *testing.T) {
	firefox := actortest.Firefox(t)
	h := newMCPHarness(t)
	text, launched := h.call("coordinator_launch_browser", map[string]any{}, false)
	def := h.defaultState()
	if launched["protocol"] != "cdp" || launched["ws"] != def.WS || launched["endpoint"] != def.Endpoint || launched["bidi_endpoint"] != nil {
		t.Errorf("Chromium launch answer %v: want protocol cdp, ws %s, endpoint %s, no bidi_endpoint", launched, def.WS, def.Endpoint)
	}
	if !strings.Contains(text, "serves CDP") {
		t.Errorf("Chromium launch says %q", text)
	}
	var firefoxEndpoint string
	for i, args := range []map[string]any{{"type": "firefox"}, {"browser": firefox}} {
		text, launched = h.call("coordinator_launch_browser", args, false)
		endpoint, _ := launched["endpoint"].(string)
		if launched["protocol"] != "bidi" || endpoint == def.Endpoint || launched["bidi_endpoint"] != bidiOf(endpoint) || launched["instance_created"] != (i == 0) {
			t.Fatalf("launch %v from the Chromium default: %v; want protocol bidi on an endpoint of its own (created the first time)", args, launched)
		}
		if i == 0 {
			firefoxEndpoint = endpoint
		} else if endpoint != firefoxEndpoint {
			t.Fatalf("the second Firefox launch went to %s, want the Firefox instance %s again", endpoint, firefoxEndpoint)
		}
		for _, want := range []string{"behind its own endpoint", def.ID + " keeps serving CDP at " + def.Endpoint} {
			if !strings.Contains(text, want) {
				t.Errorf("answer %q lacks %q", text, want)
			}
		}
		dialBiDi(t, endpoint).Close()
	}
	text, _ = h.call("coordinator_launch_browser", map[string]any{"type": "firefox", "instance": def.ID}, true)
	for _, want := range []string{"an endpoint keeps its protocol", def.ID, "serves CDP", "speaks WebDriver BiDi",
		`browser_instance {"action": "new", "browser": "firefox"}`, "CDPVISOR_BROWSER=firefox"} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal %q lacks %q", text, want)
		}
	}
	if strings.Contains(text, "launch failed") {
		t.Errorf("refusal %q reads as a failed launch; nothing was launched", text)
	}
	if now := h.defaultState(); now.Browser.Pid != def.Browser.Pid || now.Browser.Generation != def.Browser.Generation {
		t.Errorf("the Firefox launches touched the default browser: %+v, was %+v", now.Browser, def.Browser)
	}
	for _, bad := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"type": "firefox", "browser": "chrome"}, "give type or browser, not both"},
		{map[string]any{"type": "/usr/bin/firefox"}, `unknown browser type "/usr/bin/firefox"`},
	} {
		if text, _ := h.call("coordinator_launch_browser", bad.args, true); !strings.Contains(text, bad.want) {
			t.Errorf("%v: %q lacks %q", bad.args, text, bad.want)
		}
	}
	_, created := h.call("browser_instance", map[string]any{"action": "new", "type": "firefox"}, false)
	if created["protocol"] != "bidi" {
		t.Errorf("browser_instance new {type: firefox}: %v", created)
	}
}

// A coordinator serving Firefox: coordinator_launch_browser {browser:
// "firefox"} launches it and answers with the BiDi socket; a Chromium is
// refused; a restart answers with the protocol too.
func TestMCPLaunchFirefoxOnAFirefoxInstance(t *testing.T) {
	firefox := actortest.Firefox(t)
	b, err := detect.Resolve(detect.HostSystem(), firefox)
	if err != nil {
		t.Fatal(err)
	}
	h := newMCPHarnessOn(t, launch.Options{Browser: b, Headless: true, StopGrace: 5 * time.Second, ReadyTimeout: 30 * time.Second})
	def := h.defaultState()
	text, launched := h.call("coordinator_launch_browser", map[string]any{"browser": "firefox"}, false)
	if launched["protocol"] != "bidi" || launched["bidi_endpoint"] != bidiOf(def.Endpoint) || launched["ws"] != bidiOf(def.Endpoint) {
		t.Fatalf("Firefox launch answer %v: want protocol bidi, ws and bidi_endpoint %s", launched, bidiOf(def.Endpoint))
	}
	if !strings.Contains(text, "WebDriver BiDi") || !strings.Contains(text, bidiOf(def.Endpoint)) {
		t.Errorf("Firefox launch says %q", text)
	}
	dialBiDi(t, def.Endpoint).Close()

	fake := actortest.FakeBrowser(t)
	text, _ = h.call("coordinator_launch_browser", map[string]any{"browser": fake, "instance": def.ID}, true)
	for _, want := range []string{"serves WebDriver BiDi (Firefox) at " + bidiOf(def.Endpoint), "speaks CDP", `"browser": "` + fake + `"`} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal %q lacks %q", text, want)
		}
	}
	// Without an instance named, the Chromium goes to an instance of its own.
	text, other := h.call("coordinator_launch_browser", map[string]any{"browser": fake}, false)
	if other["protocol"] != "cdp" || other["endpoint"] == def.Endpoint || !strings.Contains(text, "keeps serving WebDriver BiDi at "+bidiOf(def.Endpoint)) {
		t.Errorf("a Chromium from the Firefox default: %v\n%s", other, text)
	}
	_, restarted := h.call("coordinator_restart_browser", map[string]any{"force": true}, false)
	if restarted["protocol"] != "bidi" || restarted["bidi_endpoint"] != bidiOf(def.Endpoint) {
		t.Errorf("restart answer %v: want protocol bidi and its bidi_endpoint", restarted)
	}
	dialBiDi(t, def.Endpoint).Close()
}

// coordinator_list_browsers says Firefox speaks bidi; browser_instance new
// with it makes a BiDi instance beside the Chromium default one: its ws is
// /session, and closing it ends Firefox.
func TestMCPNewFirefoxInstance(t *testing.T) {
	firefox := actortest.Firefox(t)
	h := newMCPHarness(t, "--fake-marker=chromium-only") // the coordinator's --browser-arg
	text, listed := h.call("coordinator_list_browsers", nil, false)
	raw, _ := json.Marshal(listed["browsers"])
	if !strings.Contains(string(raw), `"path":"`+firefox+`"`) || !strings.Contains(string(raw), `"protocol":"bidi"`) || !strings.Contains(text, "(firefox, bidi)") {
		t.Errorf("coordinator_list_browsers does not list %s as bidi: %s\n%s", firefox, text, raw)
	}
	text, created := h.call("browser_instance", map[string]any{"action": "new", "browser": firefox}, false)
	endpoint, _ := created["endpoint"].(string)
	if ws, _ := created["ws"].(string); ws != bidiOf(endpoint) || created["bidi_endpoint"] != ws || created["protocol"] != "bidi" {
		t.Fatalf("new Firefox instance: %v; want ws and bidi_endpoint %s, protocol bidi", created, bidiOf(endpoint))
	}
	if !strings.Contains(text, "serves WebDriver BiDi (not CDP): connect a BiDi client to "+bidiOf(endpoint)) {
		t.Errorf("browser_instance new says %q, not where a BiDi client connects", text)
	}
	dialBiDi(t, endpoint).Close()
	ff := oneFirefoxUnder(t, os.TempDir())
	h.call("browser_instance", map[string]any{"action": "close", "id": created["id"]}, false)
	waitGone(t, ff[0])
	if def := h.defaultState(); def.WS != wsOf(def.Endpoint) {
		t.Errorf("the default Chromium instance's ws %q, want %s", def.WS, wsOf(def.Endpoint))
	}
}

// oneFirefoxUnder is the pid of the one Firefox whose profile is under
// dir, none of them given the coordinator's Chromium --browser-arg. A
// second one may be there for a moment (a CI run once saw two, one
// started after the instance's); it must be gone within 5 s.
func oneFirefoxUnder(t *testing.T, dir string) []int {
	t.Helper()
	var ff []int
	var seen []string
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		found, err := proc.BrowsersUnder(dir)
		if err != nil {
			t.Fatal(err)
		}
		ff, seen = nil, nil
		for _, p := range found {
			if strings.Contains(p.Exe, "firefox") {
				ff = append(ff, p.Pid)
				seen = append(seen, fmt.Sprintf("%d %s %q", p.Pid, p.Exe, p.Args))
				if strings.Contains(strings.Join(p.Args, " "), "fake-marker") {
					t.Fatalf("Firefox got the coordinator's Chromium --browser-arg: %q", p.Args)
				}
			}
		}
		if len(ff) == 1 || time.Now().After(end) {
			break
		}
	}
	if len(ff) != 1 {
		t.Fatalf("Firefox processes under %s: %v, want one:\n%s", dir, ff, strings.Join(seen, "\n"))
	}
	return ff
}

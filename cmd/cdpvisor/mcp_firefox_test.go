package main

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/chrome/chrometest"
)

// coordinator_launch_browser never changes an endpoint's protocol: Firefox
// on the Chromium default instance is refused with what to do, and the
// browser running there is left alone; a Chromium launch says it serves CDP.
func TestMCPLaunchFirefoxOnAChromiumInstanceIsRefused(t *testing.T) {
	firefox := chrometest.Firefox(t)
	h := newMCPHarness(t)
	text, launched := h.call("coordinator_launch_browser", map[string]any{}, false)
	def := h.defaultState()
	if launched["protocol"] != "cdp" || launched["ws"] != def.WS || launched["endpoint"] != def.Endpoint || launched["bidi_endpoint"] != nil {
		t.Errorf("Chromium launch answer %v: want protocol cdp, ws %s, endpoint %s, no bidi_endpoint", launched, def.WS, def.Endpoint)
	}
	if !strings.Contains(text, "serves CDP") {
		t.Errorf("Chromium launch says %q", text)
	}
	for _, b := range []string{"firefox", firefox} {
		text, _ = h.call("coordinator_launch_browser", map[string]any{"browser": b}, true)
		for _, want := range []string{"an endpoint keeps its protocol", def.ID, "serves CDP", "speaks WebDriver BiDi",
			`browser_instance {"action": "new", "browser": "` + b + `"}`, "CDPVISOR_BROWSER=firefox"} {
			if !strings.Contains(text, want) {
				t.Errorf("refusal %q lacks %q", text, want)
			}
		}
		if strings.Contains(text, "launch failed") {
			t.Errorf("refusal %q reads as a failed launch; nothing was launched", text)
		}
	}
	if now := h.defaultState(); now.Browser.Pid != def.Browser.Pid || now.Browser.Generation != def.Browser.Generation {
		t.Errorf("the refused switch touched the browser: %+v, was %+v", now.Browser, def.Browser)
	}
}

// A coordinator serving Firefox: coordinator_launch_browser {browser:
// "firefox"} launches it and answers with the BiDi socket; a Chromium is
// refused; a restart answers with the protocol too.
func TestMCPLaunchFirefoxOnAFirefoxInstance(t *testing.T) {
	firefox := chrometest.Firefox(t)
	b, err := chrome.Resolve(chrome.HostSystem(), firefox)
	if err != nil {
		t.Fatal(err)
	}
	h := newMCPHarnessOn(t, chrome.LaunchOptions{Browser: b, Headless: true, StopGrace: 5 * time.Second, ReadyTimeout: 30 * time.Second})
	def := h.defaultState()
	text, launched := h.call("coordinator_launch_browser", map[string]any{"browser": "firefox"}, false)
	if launched["protocol"] != "bidi" || launched["bidi_endpoint"] != bidiOf(def.Endpoint) || launched["ws"] != bidiOf(def.Endpoint) {
		t.Fatalf("Firefox launch answer %v: want protocol bidi, ws and bidi_endpoint %s", launched, bidiOf(def.Endpoint))
	}
	if !strings.Contains(text, "WebDriver BiDi") || !strings.Contains(text, bidiOf(def.Endpoint)) {
		t.Errorf("Firefox launch says %q", text)
	}
	dialBiDi(t, def.Endpoint).Close()

	fake := chrometest.FakeBrowser(t)
	text, _ = h.call("coordinator_launch_browser", map[string]any{"browser": fake}, true)
	for _, want := range []string{"serves WebDriver BiDi (Firefox) at " + bidiOf(def.Endpoint), "speaks CDP", `"browser": "` + fake + `"`} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal %q lacks %q", text, want)
		}
	}
	_, restarted := h.call("coordinator_restart_browser", map[string]any{"force": true}, false)
	if restarted["protocol"] != "bidi" || restarted["bidi_endpoint"] != bidiOf(def.Endpoint) {
		t.Errorf("restart answer %v: want protocol bidi and its bidi_endpoint", restarted)
	}
	dialBiDi(t, def.Endpoint).Close()
}

package firefox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// firefoxPref is one user_pref line of user.js.
type firefoxPref struct {
	name string
	js   string // the value as a JavaScript literal
}

func boolPref(name string, v bool) firefoxPref { return firefoxPref{name, strconv.FormatBool(v)} }
func intPref(name string, v int) firefoxPref   { return firefoxPref{name, strconv.Itoa(v)} }

// stringPref quotes with strconv.Quote, whose escapes JavaScript reads alike.
func stringPref(name, v string) firefoxPref { return firefoxPref{name, strconv.Quote(v)} }

// firefoxPrefs run Firefox unattended under the remote agent, quiet on
// this closed network, the counterpart of Chromium's default flags. The
// remote agent applies its own recommended preferences on top
// (remote.prefs.recommended).
var firefoxPrefs = []firefoxPref{
	// Serve WebDriver BiDi only (ESR 128 still has CDP; 129+ has no other).
	intPref("remote.active-protocols", 1),
	boolPref("remote.prefs.recommended", true),
	// No first-run pages, welcome tabs, default-browser or quit prompts:
	// nobody is there to click them, and they would open extra contexts.
	boolPref("browser.shell.checkDefaultBrowser", false),
	intPref("browser.startup.page", 0),
	stringPref("browser.startup.homepage_override.mstone", "ignore"),
	stringPref("startup.homepage_welcome_url", "about:blank"),
	stringPref("startup.homepage_welcome_url.additional", ""),
	boolPref("browser.aboutwelcome.enabled", false),
	stringPref("datareporting.policy.firstRunURL", ""),
	boolPref("datareporting.policy.dataSubmissionEnabled", false),
	boolPref("toolkit.telemetry.reportingpolicy.firstRun", false),
	boolPref("browser.tabs.warnOnClose", false),
	boolPref("browser.warnOnQuit", false),
	// A relaunch after a crash starts clean, never in a restore or safe-mode prompt.
	boolPref("browser.sessionstore.resume_from_crash", false),
	intPref("toolkit.startup.max_resumed_crashes", -1),
	// No background traffic: updates, telemetry, Safe Browsing lists,
	// add-on and plugin downloads, captive-portal and connectivity checks.
	boolPref("app.update.disabledForTesting", true),
	boolPref("app.update.auto", false),
	boolPref("datareporting.healthreport.uploadEnabled", false),
	stringPref("toolkit.telemetry.server", ""),
	boolPref("browser.safebrowsing.malware.enabled", false),
	boolPref("browser.safebrowsing.phishing.enabled", false),
	boolPref("browser.safebrowsing.downloads.enabled", false),
	boolPref("browser.safebrowsing.update.enabled", false),
	boolPref("extensions.update.enabled", false),
	boolPref("extensions.getAddons.cache.enabled", false),
	boolPref("media.gmp-manager.updateEnabled", false),
	boolPref("network.captive-portal-service.enabled", false),
	boolPref("network.connectivity-service.enabled", false),
	boolPref("browser.region.update.enabled", false),
	boolPref("browser.search.update", false),
	boolPref("browser.newtabpage.enabled", false),
	// Pages a client opens may open pop-ups, as under Chromium's CDP.
	boolPref("dom.disable_open_during_load", false),
}

// userJS renders prefs as the user.js file Firefox reads at every start.
func userJS(prefs []firefoxPref) string {
	var b strings.Builder
	b.WriteString("// Written by cdpvisor for a temporary profile: Firefox under its remote agent.\n")
	for _, p := range prefs {
		fmt.Fprintf(&b, "user_pref(%s, %s);\n", strconv.Quote(p.name), p.js)
	}
	return b.String()
}

// prepareProfile creates a temporary profile with its user.js. A
// profile the user supplied is used as it is: its own user.js, if any, is
// theirs.
func prepareProfile(profile string, temp bool) error {
	if !temp {
		return nil
	}
	if err := os.MkdirAll(profile, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(profile, "user.js"), []byte(userJS(firefoxPrefs)), 0o600)
}

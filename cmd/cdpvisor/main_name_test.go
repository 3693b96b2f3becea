package main

import "testing"

func TestInvokedAsBrowser(t *testing.T) {
	cases := map[string]bool{
		"/usr/local/bin/cdpvisor": false, "cdpvisor.exe": false, "/tmp/cdpv-bench-bin": false, "/x/cdpv": false,
		"/opt/b/chrome": true, "chrome.exe": true, "/x/chromium-browser": true, "google-chrome": true, "msedge": true,
	}
	for name, want := range cases {
		if got := invokedAsBrowser([]string{name, "--headless"}); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if invokedAsBrowser([]string{"/opt/b/chrome", "watchdog"}) {
		t.Error("the watchdog run through a browser-named binary became a bridge")
	}
}

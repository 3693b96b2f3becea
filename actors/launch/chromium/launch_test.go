package chromium

import (
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

func TestDevToolsLineIsAWholeLine(t *testing.T) {
	const url = "ws://127.0.0.1:41234/devtools/browser/0f9e"
	if m := devToolsLine.FindStringSubmatch("DevTools listening on " + url); m == nil || m[1] != url {
		t.Fatalf("the DevTools line gave %q", m)
	}
	for _, l := range []string{"prefix DevTools listening on " + url, "DevTools listening on ws://a b", "DevTools listening on http://x"} {
		if devToolsLine.MatchString(l) {
			t.Errorf("matched %q; only the whole line counts", l)
		}
	}
}

func TestClassifyStderr(t *testing.T) {
	cases := map[string]launch.Cause{
		"[0101/0:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.": launch.CauseRootNoSandbox,
		"The profile appears to be in use by another Chromium process (123) on another computer (x).":                                        launch.CauseProfileInUse,
		"[ERROR:ozone_platform_x11.cc] Missing X server or $DISPLAY":                                                                         launch.CauseNoDisplay,
		"FATAL: Socket path too long: /tmp/very/long":                                                                                        launch.CauseSocketPathLong,
	}
	for line, want := range cases {
		got, ok := classifyStderr([]string{"noise", line})
		if !ok || got != want {
			t.Errorf("%q: got %q %v, want %q", line, got, ok, want)
		}
	}
	if _, ok := classifyStderr([]string{"Fontconfig error"}); ok {
		t.Error("noise classified")
	}
}

package detect

import (
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

func TestDefaultProfiles(t *testing.T) {
	env := map[string]string{"LOCALAPPDATA": `C:\Users\ann\AppData\Local`}
	for _, tc := range []struct {
		goos string
		b    launch.Browser
		want string
	}{
		{"linux", launch.Browser{Type: launch.Chrome}, "/home/ann/.config/google-chrome"},
		{"linux", launch.Browser{Type: launch.Chromium}, "/home/ann/.config/chromium"},
		{"linux", launch.Browser{Type: launch.Brave}, "/home/ann/.config/BraveSoftware/Brave-Browser"},
		{"darwin", launch.Browser{Type: launch.Edge}, "/home/ann/Library/Application Support/Microsoft Edge"},
		{"windows", launch.Browser{Type: launch.Chrome}, `C:\Users\ann\AppData\Local\Google\Chrome\User Data`},
	} {
		sys := launch.System{GOOS: tc.goos, HomeDir: "/home/ann", Getenv: func(k string) string { return env[k] }}
		got, err := DefaultProfile(sys, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("%s %s: %q %v, want %q", tc.goos, tc.b.Type, got, err, tc.want)
		}
	}
	if _, err := DefaultProfile(launch.System{GOOS: "linux"}, launch.Browser{Type: launch.Chrome}); err == nil || !strings.Contains(err.Error(), "--user-data-dir") {
		t.Errorf("no home: %v, want the flag to give", err)
	}
	if _, err := DefaultProfile(launch.System{GOOS: "linux", HomeDir: "/h"}, launch.Browser{Type: launch.Firefox}); err == nil {
		t.Error("Firefox has no default profile to attach to over CDP")
	}
}

package browser

import (
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
)

// Extra args are checked, by the launcher of the browser's family, against
// the flags it reserves: Firefox's -profile, Chromium's --user-data-dir.
func TestChangeChecksArgsOfTheBrowsersFamily(t *testing.T) {
	firefox := launch.Options{Browser: launch.Browser{Type: launch.Firefox, Path: "/usr/bin/firefox-esr"}}
	chromium := launch.Options{Browser: launch.Browser{Type: launch.Chromium, Path: "/usr/bin/chromium"}}
	for _, c := range []struct {
		name string
		opts launch.Options
		args []string
		err  string
	}{
		{"firefox -profile", firefox, []string{"-profile", "/tmp/p"}, `the browser switch "profile" is cdpvisor's to set`},
		{"firefox --kiosk", firefox, []string{"--kiosk"}, ""},
		{"chromium -profile is no flag of its", chromium, []string{"-profile"}, ""},
		{"chromium --user-data-dir", chromium, []string{"--user-data-dir=/tmp/p"}, `the browser switch "user-data-dir" is cdpvisor's to set`},
	} {
		got, err := Change{Args: c.args}.Apply(c.opts, launchers.Any{})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && strings.Join(got.ExtraArgs, " ") != strings.Join(c.args, " "):
			t.Errorf("%s: args %q, want %q", c.name, got.ExtraArgs, c.args)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
		}
	}
}

package windows

import "testing"

func TestWindowsTempOwner(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{"cdpv-123-Ubuntu.1000-0a1b2c3d4e", 123, true},
		{"cdpv-123-Debian.1000-0a1b2c3d4e", 0, false}, // another distro
		{"cdpv-123-Ubuntu.1001-0a1b2c3d4e", 0, false}, // another Linux user
		{"cdpv-123-0a1b2c3d4e", 0, false},             // a Linux-style name: no tag
		{"cdpv-x-Ubuntu.1000-0a", 0, false},
		{"cdpv-0-Ubuntu.1000-0a", 0, false},
		{"chrome-profile", 0, false},
	} {
		pid, ok := windowsTempOwner(c.name, "Ubuntu.1000")
		if ok != c.ok || (ok && pid != c.pid) {
			t.Errorf("windowsTempOwner(%q) = %d, %v; want %d, %v", c.name, pid, ok, c.pid, c.ok)
		}
	}
}

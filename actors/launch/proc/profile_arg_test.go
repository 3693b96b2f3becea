package proc

import "testing"

func TestProfileArgReadsBothFamilies(t *testing.T) {
	cases := []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"--user-data-dir=/p/a", "--headless=new"}, "/p/a", true},
		{[]string{"--remote-debugging-port=0", "--profile", "/p/b", "--no-remote"}, "/p/b", true},
		{[]string{"-profile", "/p/c"}, "/p/c", true},
		{[]string{"--profile=/p/d"}, "/p/d", true},
		{[]string{"--profile-directory=Default"}, "", false},
		{[]string{"--profile"}, "", false},
		{[]string{"about:blank"}, "", false},
	}
	for _, c := range cases {
		if got, ok := ProfileArg(c.args); got != c.want || ok != c.ok {
			t.Errorf("ProfileArg(%q) = %q, %v; want %q, %v", c.args, got, ok, c.want, c.ok)
		}
	}
	if !IsHelper([]string{"/usr/lib/firefox-esr/firefox-esr", "-contentproc", "-isForBrowser"}) || !IsHelper([]string{"chrome", "--type=renderer"}) {
		t.Error("helpers not recognised")
	}
	if IsHelper([]string{"/usr/lib/firefox-esr/firefox-esr", "--profile", "/p"}) {
		t.Error("a main Firefox taken for a helper")
	}
}

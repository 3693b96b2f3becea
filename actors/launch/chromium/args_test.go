package chromium

import (
	"slices"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

func TestArgs(t *testing.T) {
	root := runningAsRoot
	t.Cleanup(func() { runningAsRoot = root })
	cases := []struct {
		name      string
		asRoot    bool
		opts      launch.Options
		want      []string
		wantNot   []string
		wantValue map[string]string
	}{
		{
			name: "headless as root", asRoot: true, opts: launch.Options{Headless: true},
			want: []string{"--headless=new", "--no-sandbox", "--no-first-run", "--disable-background-networking",
				"--disable-component-update", "--mute-audio", "--metrics-recording-only", "--disable-translate", "about:blank",
				"--webrtc-ip-handling-policy=disable_non_proxied_udp"},
			wantValue: map[string]string{"remote-debugging-pipe": "", "user-data-dir": "/p"},
			wantNot:   []string{"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"},
		},
		{
			name: "a port asked for", opts: launch.Options{DebugPort: 9333},
			wantValue: map[string]string{"remote-debugging-port": "9333", "remote-debugging-address": "127.0.0.1"},
			wantNot:   []string{"--remote-debugging-pipe"},
		},
		{
			name: "a browser others attach to keeps a port", opts: launch.Options{Attachable: true},
			wantValue: map[string]string{"remote-debugging-port": "0"},
			wantNot:   []string{"--remote-debugging-pipe"},
		},
		{
			name: "a start URL of the caller's replaces about:blank", opts: launch.Options{ExtraArgs: []string{"--x", "about:blank"}},
		},
		{
			// Clients load their extensions through the endpoint
			// (Extensions.loadUnpacked), which --disable-extensions defeats.
			name: "extensions can be loaded", opts: launch.Options{Headless: true},
			want:    []string{"--disable-component-extensions-with-background-pages"},
			wantNot: []string{"--disable-extensions"},
		},
		{
			name: "headed as a user", opts: launch.Options{},
			wantNot: []string{"--headless=new", "--no-sandbox"},
		},
		{
			name: "extra args replace defaults of the same name", opts: launch.Options{Headless: true, ExtraArgs: []string{"--headless=old", "--window-size=800,600"}},
			want: []string{"--headless=old", "--window-size=800,600"}, wantNot: []string{"--headless=new"},
		},
		{
			name: "cdpvisor keeps the port and profile", opts: launch.Options{ExtraArgs: []string{"--remote-debugging-port=9222", "--user-data-dir=/elsewhere"}},
			wantNot:   []string{"--remote-debugging-port=9222", "--user-data-dir=/elsewhere"},
			wantValue: map[string]string{"remote-debugging-pipe": "", "user-data-dir": "/p"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runningAsRoot = func() bool { return c.asRoot }
			args := Args(c.opts, "/p")
			for _, w := range c.want {
				if !slices.Contains(args, w) {
					t.Errorf("missing %s in %v", w, args)
				}
			}
			for _, w := range c.wantNot {
				if slices.Contains(args, w) {
					t.Errorf("unexpected %s in %v", w, args)
				}
			}
			for name, v := range c.wantValue {
				if got, ok := proc.FlagValue(args, name); !ok || got != v {
					t.Errorf("--%s = %q, %v; want %q", name, got, ok, v)
				}
			}
			if args[len(args)-1] != "about:blank" {
				t.Errorf("last arg %q, want about:blank", args[len(args)-1])
			}
			if n := strings.Count(strings.Join(args, " "), "about:blank"); n != 1 {
				t.Errorf("%d start URLs in %v; headless Chromium refuses more than one", n, args)
			}
		})
	}
}

func TestFlagValue(t *testing.T) {
	args := []string{"--a=1", "-b=2", "--c", "--a=3", "--", "x"}
	if v, ok := proc.FlagValue(args, "a"); !ok || v != "3" {
		t.Errorf("a = %q %v, want the last value 3", v, ok)
	}
	if v, ok := proc.FlagValue(args, "c"); !ok || v != "" {
		t.Errorf("c = %q %v, want present and empty", v, ok)
	}
	if _, ok := proc.FlagValue(args, "b"); ok {
		t.Error("single-dash b must not count as a flag")
	}
}

func TestAHeadlessLaunchRunsNoBrowserUIRenderer(t *testing.T) {
	ours := strings.Join(headlessUIFeatures, ",")
	for _, c := range []struct {
		name  string
		opts  launch.Options
		want  string // the one --disable-features's value; "": none
		extra []string
	}{
		{name: "headless", opts: launch.Options{Headless: true}, want: ours},
		{name: "headed keeps its UI", opts: launch.Options{}},
		{name: "a headed launch keeps the caller's", opts: launch.Options{ExtraArgs: []string{"--disable-features=Foo"}}, want: "Foo"},
		{name: "the caller's join ours, in one switch", opts: launch.Options{Headless: true, ExtraArgs: []string{"--disable-features=Foo,Bar", "--disable-features=Baz"}},
			want: "Foo,Bar,Baz," + ours},
		{name: "a feature the caller enables stays on", opts: launch.Options{Headless: true, ExtraArgs: []string{"--enable-features=*PreloadTopChromeWebUI<Trial,Other:p/1"}},
			want:  strings.Join(slices.DeleteFunc(slices.Clone(headlessUIFeatures), func(f string) bool { return f == "PreloadTopChromeWebUI" }), ","),
			extra: []string{"--enable-features=*PreloadTopChromeWebUI<Trial,Other:p/1"}},
		{name: "headless asked as an extra argument", opts: launch.Options{ExtraArgs: []string{"--headless=old"}}, want: ours},
	} {
		args := Args(c.opts, "/p")
		var values []string
		for _, a := range args {
			if name, value, _, ok := proc.SplitFlag(a); ok && name == "disable-features" {
				values = append(values, value)
			}
		}
		switch {
		case c.want == "" && len(values) != 0:
			t.Errorf("%s: --disable-features %q, want none", c.name, values)
		case c.want != "" && (len(values) != 1 || values[0] != c.want):
			t.Errorf("%s: --disable-features %q, want one, %q", c.name, values, c.want)
		}
		for _, e := range c.extra {
			if !slices.Contains(args, e) {
				t.Errorf("%s: %q dropped from %q", c.name, e, args)
			}
		}
	}
}

// A headless launch runs a site's pages of one context in one renderer;
// a headed one keeps Chromium's own model, and --no-process-per-site keeps
// it headless too.
func TestAHeadlessLaunchRunsASitesPagesInOneRenderer(t *testing.T) {
	for _, c := range []struct {
		name string
		opts launch.Options
		want bool
	}{
		{"headless", launch.Options{Headless: true}, true},
		{"headless asked as an extra argument", launch.Options{ExtraArgs: []string{"--headless=new"}}, true},
		{"headed", launch.Options{}, false},
		{"headless, the caller keeping Chromium's model", launch.Options{Headless: true, ExtraArgs: []string{"--no-process-per-site"}}, false},
		{"headless, the caller asking it too", launch.Options{Headless: true, ExtraArgs: []string{"--process-per-site"}}, true},
	} {
		args := Args(c.opts, "/p")
		n := 0
		for _, a := range args {
			if a == "--process-per-site" {
				n++
			}
		}
		if (n == 1) != c.want || n > 1 {
			t.Errorf("%s: --process-per-site %d times in %q, want it %v, once", c.name, n, args, c.want)
		}
	}
}

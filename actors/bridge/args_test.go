package bridge

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseBridgeArgs(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want Args
		err  string
	}{
		{
			name: "puppeteer pipe launch",
			args: []string{"--allow-pre-commit-input", "--headless=new", "--remote-debugging-pipe", "--user-data-dir=/tmp/p", "about:blank"},
			want: Args{Pipe: true, Port: -1, BridgePort: -1, UserDataDir: "/tmp/p", Headless: true,
				BrowserArgs: []string{"--allow-pre-commit-input", "--headless=new", "about:blank"}},
		},
		{
			name: "port, origins, address",
			args: []string{"--remote-debugging-port=0", "--remote-allow-origins=http://a, http://b", "--remote-debugging-address=127.0.0.1"},
			want: Args{Port: 0, BridgePort: -1, Address: "127.0.0.1", AllowOrigins: []string{"http://a", "http://b"}},
		},
		{
			name: "bridge flags both forms, env",
			args: []string{"--bridge-port", "9333", "--browser=/usr/bin/chromium", "--coordinator"},
			env:  map[string]string{"CDPVISOR_BROWSER": "edge"},
			want: Args{Port: -1, BridgePort: 9333, Browser: "/usr/bin/chromium", Coordinator: true},
		},
		{
			name: "download dir, flag over env",
			args: []string{"--download-dir", "/srv/dl", "--remote-debugging-port=0"},
			env:  map[string]string{"CDPVISOR_DOWNLOAD_DIR": "/env/dl"},
			want: Args{Port: 0, BridgePort: -1, DownloadDir: "/srv/dl"},
		},
		{
			name: "download dir from env",
			args: []string{"--remote-debugging-pipe"},
			env:  map[string]string{"CDPVISOR_DOWNLOAD_DIR": "~/dl"},
			want: Args{Pipe: true, Port: -1, BridgePort: -1, DownloadDir: "~/dl"},
		},
		{
			name: "coordinator from env, browser from env",
			env:  map[string]string{"CDPVISOR_COORDINATOR": "auto", "CDPVISOR_BROWSER": "chromium"},
			want: Args{Port: -1, BridgePort: -1, Browser: "chromium", Coordinator: true},
		},
		{name: "bad port", args: []string{"--remote-debugging-port=x"}, err: "want a port"},
		{name: "port out of range", args: []string{"--remote-debugging-port=70000"}, err: "want a port"},
		{name: "cbor pipe", args: []string{"--remote-debugging-pipe=cbor"}, err: "only the JSON"},
		{name: "foreign address", args: []string{"--remote-debugging-address=0.0.0.0"}, err: "loopback only"},
		{name: "bridge-port without value", args: []string{"--bridge-port"}, err: "needs a value"},
		{name: "install", args: []string{"--install", "/opt/b"}, want: Args{Port: -1, BridgePort: -1, Install: "/opt/b"}},
		{
			name: "hang timeout, flag over env",
			args: []string{"--hang-timeout", "3s"},
			env:  map[string]string{"CDPVISOR_HANG_TIMEOUT": "0"},
			want: Args{Port: -1, BridgePort: -1, HangTimeout: 3 * time.Second},
		},
		{name: "bad hang timeout", args: []string{"--hang-timeout=abc"}, err: `--hang-timeout="abc": want a duration`},
		{name: "negative hang timeout from env", env: map[string]string{"CDPVISOR_HANG_TIMEOUT": "-1s"}, err: `CDPVISOR_HANG_TIMEOUT="-1s"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseArgs(c.args, envOf(c.env))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.want.HangTimeout == 0 {
				c.want.HangTimeout = DefaultHangTimeout
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestBridgeBrowserPortPrecedence(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want int
		err  bool
	}{
		{"flag wins", []string{"--bridge-port=9301", "--remote-debugging-pipe", "--remote-debugging-port=9400"}, map[string]string{"CDPVISOR_BRIDGE_PORT": "9302"}, 9301, false},
		{"then env", []string{"--remote-debugging-pipe", "--remote-debugging-port=9400"}, map[string]string{"CDPVISOR_BRIDGE_PORT": "9302"}, 9302, false},
		{"then the tool's port when the bridge uses the pipe", []string{"--remote-debugging-pipe", "--remote-debugging-port=9400"}, nil, 9400, false},
		{"not the port the bridge listens on", []string{"--remote-debugging-port=9400"}, nil, 0, false},
		{"then any free port", []string{"--remote-debugging-pipe"}, nil, 0, false},
		{"bad env", nil, map[string]string{"CDPVISOR_BRIDGE_PORT": "high"}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseArgs(c.args, envOf(c.env))
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.BrowserPort(envOf(c.env))
			if (err != nil) != c.err || got != c.want {
				t.Fatalf("port %d err %v, want %d err %v", got, err, c.want, c.err)
			}
		})
	}
}

// Any command line parses or is refused with an error; nothing is lost: every
// argument the bridge does not interpret is passed on, in order.
func FuzzParseBridgeArgs(f *testing.F) {
	f.Add("--remote-debugging-pipe\x00--user-data-dir=/tmp/p\x00--headless=new\x00about:blank")
	f.Add("--remote-debugging-port=0\x00--remote-allow-origins=*\x00--bridge-port\x009333")
	f.Add("--install\x00/x\x00--browser=chromium\x00--coordinator")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		a, err := ParseArgs(args, envOf(nil))
		if err != nil {
			return
		}
		interpreted := map[string]bool{"remote-debugging-pipe": true, "remote-debugging-port": true,
			"remote-debugging-address": true, "remote-allow-origins": true, "user-data-dir": true,
			"bridge-port": true, "coordinator": true, "browser": true, "install": true}
		var passed []string
		for i := 0; i < len(args); i++ {
			name, _, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
			if !strings.HasPrefix(args[i], "--") || !interpreted[name] {
				passed = append(passed, args[i])
				continue
			}
			if (name == "bridge-port" || name == "browser" || name == "install") && !hasValue {
				i++ // its value came next
			}
		}
		if !reflect.DeepEqual(a.BrowserArgs, passed) && !(len(a.BrowserArgs) == 0 && len(passed) == 0) {
			t.Fatalf("passed on %q, want %q", a.BrowserArgs, passed)
		}
		if a.Port < -1 || a.Port > 65535 || a.BridgePort < -1 || a.BridgePort > 65535 {
			t.Fatalf("port out of range: %+v", a)
		}
	})
}

package seedflags

import (
	"flag"
	"strings"
	"testing"
)

// --proxy is checked with the policy before anything is sent: a URL that
// cannot be used is refused naming the flag and the accepted forms, never
// the password; a good one is sent as given.
func TestPolicyRequestChecksTheProxy(t *testing.T) {
	const pass = "flag-pass-61b0"
	for in, want := range map[string]string{
		"socks5://u:" + pass + "@127.0.0.1:1080": "",
		"http://127.0.0.1:3128":                  "",
		"https://u:" + pass + "@h:443":           `--proxy: not an upstream proxy URL: scheme "https" is not supported; want http://[user:pass@]host:port or socks5://[user:pass@]host:port`,
		"http://u:" + pass + "@h":                "--proxy: not an upstream proxy URL: h has no port",
	} {
		var p Policy
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.Register(fs)
		if err := fs.Parse([]string{"--proxy", in}); err != nil {
			t.Fatal(err)
		}
		req, err := p.Request()
		switch {
		case want == "" && (err != nil || req.Proxy != in || !p.Given() || req.Guarded()):
			t.Errorf("%s: %+v %v", in, req, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), pass)):
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

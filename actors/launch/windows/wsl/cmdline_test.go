package wsl

import (
	"slices"
	"testing"
)

func TestQuoteArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{`--headless=new`, `--headless=new`},
		{``, `""`},
		{`C:\Program Files\x`, `"C:\Program Files\x"`},
		{`C:\dir\`, `C:\dir\`},          // no blanks: backslashes as they are
		{`C:\my dir\`, `"C:\my dir\\"`}, // before the closing quote: doubled
		{`say "hi"`, `"say \"hi\""`},    // quotes escaped
		{`a\"b`, `"a\\\"b"`},            // a backslash before a quote: doubled, plus one
		{`--user-data-dir=C:\Users\Zoë\Temp\cdpv-1`, `--user-data-dir=C:\Users\Zoë\Temp\cdpv-1`}, // non-ASCII needs nothing
		{`--user-agent=Mozilla/5.0 (X11)`, `"--user-agent=Mozilla/5.0 (X11)"`},
		{"tab\there", "\"tab\there\""},
	}
	for _, tt := range tests {
		if got := QuoteArg(tt.in); got != tt.want {
			t.Errorf("QuoteArg(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Every argument survives the trip through a command line.
func TestCommandLineRoundTrip(t *testing.T) {
	args := []string{
		`--user-data-dir=C:\Users\Ann Lee\AppData\Local\Temp\cdpv-12-ab`, ``, `"`, `\`, `\\`, `a\\"b`,
		`C:\trailing\`, `C:\trailing space\`, `日本語 パス`, `it's`, `--x="quoted value"`, `end\\\"`,
	}
	got := SplitArgs(CommandLine(args))
	if !slices.Equal(got, args) {
		t.Errorf("round trip:\n got %q\nwant %q", got, args)
	}
}

func TestSplitCommandLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`"C:\Program Files\Google\Chrome\Application\chrome.exe" --user-data-dir="C:\a b" --remote-debugging-port=9222`,
			[]string{`C:\Program Files\Google\Chrome\Application\chrome.exe`, `--user-data-dir=C:\a b`, `--remote-debugging-port=9222`}},
		{`C:\x\chrome.exe --type=renderer`, []string{`C:\x\chrome.exe`, `--type=renderer`}},
		{`"C:\x\"  a`, []string{`C:\x\`, `a`}}, // the program name has no escapes
		{`x "a""b"`, []string{`x`, `a"b`}},
		{``, nil},
	}
	for _, tt := range tests {
		if got := SplitCommandLine(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommandLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzCommandLine(f *testing.F) {
	f.Add(`a b`, `c"d\`)
	f.Fuzz(func(t *testing.T, a, b string) {
		args := []string{a, b}
		if got := SplitArgs(CommandLine(args)); !slices.Equal(got, args) {
			t.Errorf("round trip of %q: %q", args, got)
		}
	})
}

package wsl

import (
	"io/fs"
	"maps"
	"strings"
	"testing"
)

func TestPSQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{`C:\Program Files\x`, `'C:\Program Files\x'`},
		{`it's`, `'it''s'`},
		{`$env:TEMP`, `'$env:TEMP'`}, // nothing expands in single quotes
		{"typo\u2019graphic", "'typo\u2019\u2019graphic'"},
		{`Zoë "x"`, `'Zoë "x"'`},
	}
	for _, tt := range tests {
		if got := PSQuote(tt.in); got != tt.want {
			t.Errorf("PSQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// What Script writes, ParseScript (the fake Windows side) reads back.
func TestScriptRoundTrip(t *testing.T) {
	params := map[string]string{
		"FilePath":     `C:\Program Files\Google\Chrome\Application\chrome.exe`,
		"ArgumentList": CommandLine([]string{`--user-data-dir=C:\Users\Zoë O'Neil\Temp\cdpv-1`, `--x=a "b"`, "\u2018q\u2019"}),
		"Hidden":       "1",
	}
	text, err := Script(ScriptStart,
		Param{"FilePath", params["FilePath"]}, Param{"ArgumentList", params["ArgumentList"]}, Param{"Hidden", 1})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := DecodeCommand(EncodeCommand(text))
	if err != nil || dec != text {
		t.Fatalf("encode/decode: %v", err)
	}
	name, got, err := ParseScript(dec)
	if err != nil || name != ScriptStart || !maps.Equal(got, params) {
		t.Errorf("ParseScript = %q, %q, %v; want %q", name, got, err, params)
	}
	if !strings.Contains(text, "Start-Process") || !strings.Contains(text, "exit 1") {
		t.Errorf("the script's body or its error handling is missing:\n%s", text)
	}
}

func TestScriptRefuses(t *testing.T) {
	if _, err := Script(ScriptStart, Param{"FilePath", "a\nb"}); err == nil {
		t.Error("a line break in a parameter was accepted")
	}
	if _, err := Script(ScriptStart, Param{"bad name", "x"}); err == nil {
		t.Error("a bad parameter name was accepted")
	}
	if _, err := Script("nope.ps1"); err == nil {
		t.Error("an unknown script was accepted")
	}
}

// Every script uses only parameters that are given a value before it, and
// every one is listed by its constant.
func TestScriptsListed(t *testing.T) {
	known := map[string]bool{ScriptStart: true, ScriptWait: true, ScriptStop: true, ScriptList: true,
		ScriptTempDir: true, ScriptRemove: true, ScriptActivePort: true, ScriptEnv: true, ScriptRelay: true, ScriptHTTP: true}
	entries, err := fs.ReadDir(scriptFiles, "scripts")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !known[e.Name()] {
			t.Errorf("scripts/%s has no constant", e.Name())
		}
		delete(known, e.Name())
	}
	for name := range known {
		t.Errorf("%s has no file", name)
	}
}

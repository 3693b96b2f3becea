package wsl

import (
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

//go:embed scripts/*.ps1
var scriptFiles embed.FS

// The scripts cdpvisor runs through powershell.exe (scripts/*.ps1).
const (
	ScriptStart      = "start.ps1"
	ScriptWait       = "wait.ps1"
	ScriptStop       = "stop.ps1"
	ScriptList       = "list.ps1"
	ScriptTempDir    = "tempdir.ps1"
	ScriptRemove     = "remove.ps1"
	ScriptActivePort = "activeport.ps1"
	ScriptEnv        = "env.ps1"
	ScriptRelay      = "relay.ps1" // a browser websocket over stdio (NAT)
	ScriptHTTP       = "http.ps1"  // one HTTP request to the browser (NAT)
)

// Param is one script parameter: a string or an int, set as a variable
// before the script's body.
type Param struct {
	Name  string
	Value any // string or int
}

// Script header lines: the first names the script, the params follow, the
// marker ends them. The fake Windows side of the tests reads the same text.
const (
	headerPrefix = "# cdpvisor script: "
	paramsEnd    = "# end of parameters"
)

// prologue makes every script fail on the first error and write UTF-8, so
// non-ASCII paths reach Linux intact (the console code page would not).
const prologue = `$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
[Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false
try {
`

// epilogue turns an error into one line on stderr and exit code 1.
const epilogue = `
} catch {
    [Console]::Error.WriteLine($_.Exception.Message)
    exit 1
}
`

// Script is the text sent to powershell.exe for the named script: its
// parameters as PowerShell variables, then its body.
func Script(name string, params ...Param) (string, error) {
	body, err := scriptFiles.ReadFile("scripts/" + name)
	if err != nil {
		return "", fmt.Errorf("no script %s: %w", name, err)
	}
	var b strings.Builder
	b.WriteString(headerPrefix + name + "\n")
	for _, p := range params {
		if !paramName.MatchString(p.Name) {
			return "", fmt.Errorf("script %s: bad parameter name %q", name, p.Name)
		}
		switch v := p.Value.(type) {
		case string:
			if strings.ContainsAny(v, "\r\n\x00") {
				return "", fmt.Errorf("script %s: parameter %s holds a line break or NUL, which cannot cross to Windows: %q", name, p.Name, v)
			}
			fmt.Fprintf(&b, "$%s = %s\n", p.Name, PSQuote(v))
		case int:
			fmt.Fprintf(&b, "$%s = %d\n", p.Name, v)
		default:
			return "", fmt.Errorf("script %s: parameter %s is a %T, want string or int", name, p.Name, p.Value)
		}
	}
	b.WriteString(paramsEnd + "\n")
	b.WriteString(prologue)
	b.Write(body)
	b.WriteString(epilogue)
	return b.String(), nil
}

var (
	paramName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)
	paramLine = regexp.MustCompile(`^\$([A-Za-z][A-Za-z0-9]*) = (?:'(.*)'|(-?[0-9]+))$`)
)

// psQuotes are the characters PowerShell takes as a single quote: the
// ASCII one and the typographic ones (U+2018, U+2019, U+201A, U+201B).
const psQuotes = "'\u2018\u2019\u201a\u201b"

// PSQuote writes s as a PowerShell single-quoted string, in which nothing
// is expanded; each quote character is doubled.
func PSQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if strings.ContainsRune(psQuotes, r) {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// unquotePS reads the inside of a single-quoted string PSQuote wrote.
func unquotePS(s string) (string, error) {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if strings.ContainsRune(psQuotes, r) {
			if i+1 >= len(rs) || !strings.ContainsRune(psQuotes, rs[i+1]) {
				return "", fmt.Errorf("unescaped quote in '%s'", s)
			}
			i++
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// ParseScript reads back what Script wrote: the script's name and its
// parameters (ints as their decimal text). The fake Windows side of the
// tests uses it to know what it was asked to do.
func ParseScript(text string) (name string, params map[string]string, err error) {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], headerPrefix) {
		return "", nil, errors.New("not a cdpvisor script: no header line")
	}
	name = strings.TrimSpace(strings.TrimPrefix(lines[0], headerPrefix))
	params = map[string]string{}
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r")
		if l == paramsEnd {
			return name, params, nil
		}
		m := paramLine.FindStringSubmatch(l)
		if m == nil {
			return "", nil, fmt.Errorf("script %s: unreadable parameter line %q", name, l)
		}
		if m[3] != "" {
			if _, err := strconv.Atoi(m[3]); err != nil {
				return "", nil, err
			}
			params[m[1]] = m[3]
			continue
		}
		v, err := unquotePS(m[2])
		if err != nil {
			return "", nil, fmt.Errorf("script %s: parameter %s: %w", name, m[1], err)
		}
		params[m[1]] = v
	}
	return "", nil, fmt.Errorf("script %s: no end of parameters", name)
}

// EncodeCommand is the text for powershell.exe -EncodedCommand: base64 of
// UTF-16LE. It crosses the WSL interop boundary with no quoting at all.
func EncodeCommand(script string) string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeCommand reverses EncodeCommand.
func DecodeCommand(enc string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(b)%2 != 0 {
		return "", fmt.Errorf("not an encoded command: %v", err)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), nil
}

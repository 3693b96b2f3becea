package main

import (
	"strings"
	"testing"
)

func TestParseDevToolsLine(t *testing.T) {
	cases := []struct {
		line, want string
		ok         bool
	}{
		{"DevTools listening on ws://127.0.0.1:41233/devtools/browser/3f1c-aa", "ws://127.0.0.1:41233/devtools/browser/3f1c-aa", true},
		{"DevTools listening on ws://127.0.0.1:41233/devtools/browser/x\r", "ws://127.0.0.1:41233/devtools/browser/x", true},
		{"DevTools listening on ws://[::1]:9222/devtools/browser/x", "ws://[::1]:9222/devtools/browser/x", true},
		{"[1121/095401.1:ERROR:bus.cc(407)] Failed to connect to the bus", "", false},
		{"DevTools listening on ", "", false},
		{"xx DevTools listening on ws://127.0.0.1:1/devtools/browser/x", "", false},
		{"DevTools listening on ws://127.0.0.1:1/devtools/browser/x trailing", "", false},
	}
	for _, c := range cases {
		got, ok := parseDevToolsLine(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("parseDevToolsLine(%q) = %q, %v; want %q, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestParseEndpointLine(t *testing.T) {
	cases := []struct {
		line, want string
		ok         bool
	}{
		{"http://127.0.0.1:38211", "http://127.0.0.1:38211", true},
		{"http://127.0.0.1:38211/\n", "http://127.0.0.1:38211", true},
		{"http://localhost:1", "http://localhost:1", true},
		{"http://[::1]:9", "http://[::1]:9", true},
		{"http://10.0.0.1:80", "", false},
		{"listening on http://127.0.0.1:1", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := parseEndpointLine(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("parseEndpointLine(%q) = %q, %v; want %q, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestLineWriterJoinsSplitWrites(t *testing.T) {
	var lines []string
	w := newLineWriter(2, func(l string) { lines = append(lines, l) })
	for _, chunk := range []string{"/usr/bin/chromium: warn", "ing\r\nDevTools listen", "ing on ws://127.0.0.1:5/devtools/browser/u", "\nlast partial"} {
		if n, err := w.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if len(lines) != 2 || lines[0] != "/usr/bin/chromium: warning" {
		t.Fatalf("lines = %q", lines)
	}
	if ws, ok := parseDevToolsLine(lines[1]); !ok || ws != "ws://127.0.0.1:5/devtools/browser/u" {
		t.Errorf("split announcement not reassembled: %q", lines[1])
	}
	if tail := w.tail(); !strings.HasSuffix(tail, "browser/u") || strings.Contains(tail, "partial") {
		t.Errorf("tail = %q", tail)
	}
}

func TestLineWriterKeepsLastLines(t *testing.T) {
	w := newLineWriter(3, nil)
	for i := 0; i < 10; i++ {
		_, _ = w.Write([]byte{'a' + byte(i), '\n'})
	}
	if got := w.tail(); got != "h\ni\nj" {
		t.Errorf("tail = %q", got)
	}
}

package state

import (
	"strings"
	"testing"
)

func TestParseStateFileRejectsBadContent(t *testing.T) {
	cases := map[string]string{
		"not json":   `{"port":`,
		"no port":    `{"pid":12}`,
		"port range": `{"port":70000,"pid":12}`,
		"no pid":     `{"port":9222}`,
		"negative":   `{"port":9222,"pid":-1}`,
	}
	for name, content := range cases {
		if _, err := Parse("x.json", []byte(content)); err == nil || !strings.Contains(err.Error(), "x.json") {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
	}
	s, err := Parse("x.json", []byte(`{"port":41837,"pid":12345}`)) // the seed's format
	if err != nil || s.Endpoint != "http://127.0.0.1:41837" || s.WS != "ws://127.0.0.1:41837/devtools/browser" {
		t.Fatalf("seed format: %+v %v", s, err)
	}
}

func FuzzParseStateFile(f *testing.F) {
	f.Add([]byte(`{"port":41837,"pid":12345}`))
	f.Add([]byte(`{"port":1,"pid":1,"ppid":1,"started_at":"2026-01-01T00:00:00Z","version":"x","endpoint":"http://127.0.0.1:1","ws":"ws://127.0.0.1:1/devtools/browser"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f", data)
		if err != nil {
			return
		}
		if s.Port <= 0 || s.Port > 65535 || s.PID <= 0 || s.Endpoint == "" || !strings.HasPrefix(s.WS, "ws://") {
			t.Fatalf("accepted an implausible state: %+v", s)
		}
	})
}

package detect

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

func TestParseVersion(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)\n", "156.0.8078.79"},
		{"Google Chrome 131.0.6778.85 \n", "131.0.6778.85"},
		{"Microsoft Edge 131.0.2903.70 beta", "131.0.2903.70"},
		{"Brave Browser 131.1.73.89", "131.1.73.89"},
		{"Chromium 120.0.6099.224 snap", "120.0.6099.224"},
		{"Google Chrome for Testing 121.0", "121.0"},
		{"Mozilla Firefox 153.7.0esr\n", "153.7.0esr"},
		{"Mozilla Firefox 155.0a1", "155.0a1"},
		{"Mozilla Firefox 154.0b3", "154.0b3"},
		{"Mozilla Firefox 153.0.2", "153.0.2"},
		{"Debian GNU/Linux 12", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := launch.ParseVersion(tt.in); got != tt.want {
			t.Errorf("launch.ParseVersion(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReadVersionWindows(t *testing.T) {
	const app = `C:\Program Files\Google\Chrome\Application`
	tests := []struct {
		name    string
		dirs    []string
		want    string
		wantErr bool
	}{
		{name: "single", dirs: []string{app + `\131.0.6778.85`}, want: "131.0.6778.85"},
		{
			name: "highest wins numerically",
			dirs: []string{app + `\131.0.6778.9`, app + `\131.0.6778.85`, app + `\SetupMetrics`, app + `\99.0.1.1`},
			want: "131.0.6778.85",
		},
		{name: "none", dirs: []string{app + `\SetupMetrics`, app + `\chrome.exe.sig`}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := fakeSystem(fakeMachine{goos: "windows", files: []string{app + `\chrome.exe`}, dirs: tt.dirs})
			got, err := ReadVersion(context.Background(), sys, launch.Browser{Type: launch.Chrome, Path: app + `\chrome.exe`})
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ReadVersion = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// writeScript creates an executable shell script in dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadVersionRunsBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses shell scripts")
	}
	dir := t.TempDir()
	tests := []struct {
		name    string
		body    string
		want    string
		wantErr string
	}{
		{
			name: "stdout only, stderr noise ignored",
			body: `echo "9: [: 25276502016: unexpected operator" >&2; echo "Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)"`,
			want: "156.0.8078.79",
		},
		{name: "no version", body: `echo hello`, wantErr: "no version number"},
		{name: "fails", body: `exit 3`, wantErr: "exit status 3"},
		{name: "hangs", body: `sleep 30`, wantErr: "deadline exceeded"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeScript(t, dir, "browser"+string(rune('a'+i)), tt.body)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			got, err := ReadVersion(ctx, HostSystem(), launch.Browser{Path: p})
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("ReadVersion took %v; the deadline was not enforced", elapsed)
			}
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("ReadVersion = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ReadVersion = %q, %v; want error containing %q", got, err, tt.wantErr)
			}
		})
	}
}

func TestReadVersionMissingFile(t *testing.T) {
	_, err := ReadVersion(context.Background(), HostSystem(), launch.Browser{Path: filepath.Join(t.TempDir(), "nope")})
	if err == nil {
		t.Fatal("ReadVersion of a missing file succeeded")
	}
}

// TestHostChromium checks real detection on machines that have Debian's
// chromium package, as the CI image does.
func TestHostChromium(t *testing.T) {
	const chromium = "/usr/bin/chromium"
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s missing on CI: %v", chromium, err)
		}
		t.Skipf("%s not installed", chromium)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, b := range DetectWithVersions(ctx, HostSystem()) {
		if b.Path == chromium {
			if b.Type != launch.Chromium || b.Version == "" {
				t.Errorf("detected %+v, want type chromium with a version", b)
			}
			return
		}
	}
	t.Errorf("DetectWithVersions did not find %s", chromium)
}

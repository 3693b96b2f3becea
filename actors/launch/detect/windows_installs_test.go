package detect

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// wslMachine is a WSL distribution with Windows installs under /mnt/c.
func wslFake(files []string, extra func(*launch.System)) launch.System {
	m := fakeMachine{
		goos:  "linux",
		files: files,
		env:   map[string]string{"WSL_DISTRO_NAME": "Ubuntu", "USER": "ann"},
		path:  map[string]string{},
	}
	sys := fakeSystem(m)
	sys.IsDir = func(p string) bool { return p == "/mnt/c" }
	if extra != nil {
		extra(&sys)
	}
	return sys
}

const (
	winChrome = "/mnt/c/Program Files/Google/Chrome/Application/chrome.exe"
	winEdge   = "/mnt/c/Program Files (x86)/Microsoft/Edge/Application/msedge.exe"
	winBrave  = "/mnt/c/Users/ann/AppData/Local/BraveSoftware/Brave-Browser/Application/brave.exe"
)

func TestDetectWSL(t *testing.T) {
	sys := wslFake([]string{"/usr/bin/chromium", "/usr/bin/google-chrome", winChrome, winEdge, winBrave,
		"/mnt/c/Users/Public/AppData/Local/Chromium/Application/chrome.exe"}, nil)
	got := Detect(sys)
	want := []launch.Browser{
		{Name: "Google Chrome", Type: launch.Chrome, Path: "/usr/bin/google-chrome", Channel: ChannelStable, Source: SourceSystem},
		{Name: "Google Chrome", Type: launch.Chrome, Path: winChrome, Channel: ChannelStable, Source: SourceSystem, Windows: true},
		{Name: "Microsoft Edge", Type: launch.Edge, Path: winEdge, Channel: ChannelStable, Source: SourceSystem, Windows: true},
		{Name: "Chromium", Type: launch.Chromium, Path: "/usr/bin/chromium", Channel: ChannelStable, Source: SourceSystem},
		{Name: "Brave", Type: launch.Brave, Path: winBrave, Channel: ChannelStable, Source: SourceSystem, Windows: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Detect:\n got %+v\nwant %+v", got, want)
	}

	// Outside WSL the same files mean nothing.
	plain := fakeSystem(fakeMachine{goos: "linux", files: []string{winChrome}})
	if got := Detect(plain); len(got) != 0 {
		t.Errorf("Detect outside WSL found %+v", got)
	}
}

func TestResolveWSLPreference(t *testing.T) {
	files := []string{"/usr/bin/google-chrome", winChrome, winEdge}
	linux := wslFake(files, nil)
	if b, err := Resolve(linux, "chrome"); err != nil || b.Windows || b.Path != "/usr/bin/google-chrome" {
		t.Errorf("chrome prefers the Linux install: %+v, %v", b, err)
	}
	if b, err := Resolve(linux, ""); err != nil || b.Windows {
		t.Errorf("the default prefers a Linux install: %+v, %v", b, err)
	}
	if b, err := Resolve(linux, "edge"); err != nil || !b.Windows || b.Path != winEdge {
		t.Errorf("edge, on Windows only: %+v, %v", b, err)
	}
	win := wslFake(files, func(s *launch.System) { s.PreferWindows = true })
	if b, err := Resolve(win, "chrome"); err != nil || !b.Windows || b.Path != winChrome {
		t.Errorf("--windows chrome: %+v, %v", b, err)
	}
	if b, err := Resolve(win, ""); err != nil || !b.Windows || b.Path != winChrome {
		t.Errorf("--windows default: %+v, %v", b, err)
	}
	_, err := Resolve(wslFake([]string{"/usr/bin/chromium"}, func(s *launch.System) { s.PreferWindows = true }), "chromium")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "Windows side") {
		t.Errorf("--windows with only a Linux chromium: %v", err)
	}
}

func TestResolveWSLPaths(t *testing.T) {
	sys := wslFake([]string{winChrome, "/mnt/c/tools/my chrome.exe"}, nil)
	b, err := Resolve(sys, `C:\Program Files\Google\Chrome\Application\chrome.exe`)
	if err != nil || b.Path != winChrome || !b.Windows || b.Source != SourceSystem {
		t.Errorf("a Windows path to a known install: %+v, %v", b, err)
	}
	b, err = Resolve(sys, "/mnt/c/tools/my chrome.exe")
	if err != nil || !b.Windows || b.Type != launch.Chrome || b.Source != SourceUser {
		t.Errorf("a .exe path is a Windows browser: %+v, %v", b, err)
	}
	_, err = Resolve(sys, `E:\chrome\chrome.exe`)
	if err == nil || !strings.Contains(err.Error(), "not mounted") {
		t.Errorf("a drive without a mount: %v", err)
	}
}

func TestWSLLocalAppData(t *testing.T) {
	two := []string{
		"/mnt/c/Users/bob/AppData/Local/Google/Chrome/Application/chrome.exe",
		"/mnt/c/Users/carol/AppData/Local/Google/Chrome/Application/chrome.exe",
	}
	// Neither is named as the Linux user: Windows is asked.
	sys := wslFake(two, func(s *launch.System) {
		s.WindowsLocalAppData = func() (string, error) { return `C:\Users\carol\AppData\Local`, nil }
	})
	got := Detect(sys)
	if len(got) != 1 || got[0].Path != two[1] {
		t.Errorf("Windows named carol: %+v", got)
	}
	// Windows does not answer: every user's installs are listed.
	sys = wslFake(two, func(s *launch.System) {
		s.WindowsLocalAppData = func() (string, error) { return "", os.ErrNotExist }
	})
	if got := Detect(sys); len(got) != 2 {
		t.Errorf("no answer from Windows: %+v", got)
	}
}

func TestDriveRootFromWSLConf(t *testing.T) {
	exe := "/win/c/Program Files/Google/Chrome/Application/chrome.exe"
	sys := wslFake([]string{exe}, func(s *launch.System) {
		s.ReadFile = func(p string) ([]byte, error) {
			if p == "/etc/wsl.conf" {
				return []byte("[automount]\nroot = /win/\n"), nil
			}
			return nil, os.ErrNotExist
		}
	})
	if got := Detect(sys); len(got) != 1 || got[0].Path != exe {
		t.Errorf("drives under /win: %+v", got)
	}
}

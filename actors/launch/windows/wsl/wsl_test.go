package wsl

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// fakeMachine is a machine of files and directories.
func fakeMachine(env map[string]string, files map[string]string, dirs ...string) Machine {
	isDir := map[string]bool{}
	for _, d := range dirs {
		isDir[d] = true
	}
	return Machine{
		Getenv: func(k string) string { return env[k] },
		ReadFile: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		},
		IsDir: func(p string) bool { return isDir[p] },
	}
}

func TestIs(t *testing.T) {
	tests := []struct {
		name  string
		env   map[string]string
		files map[string]string
		want  bool
	}{
		{"plain linux", nil, map[string]string{"/proc/version": "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)"}, false},
		{"distro variable", map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}, nil, true},
		{"interop handler", nil, map[string]string{"/proc/sys/fs/binfmt_misc/WSLInterop": "enabled\ninterpreter /init\n"}, true},
		{"late interop handler", nil, map[string]string{"/proc/sys/fs/binfmt_misc/WSLInterop-late": "enabled\n"}, true},
		{"kernel version", nil, map[string]string{"/proc/version": "Linux version 5.15.146.1-microsoft-standard-WSL2 (root@65c7)"}, true},
		{"WSL1 kernel version", nil, map[string]string{"/proc/version": "Linux version 4.4.0-19041-Microsoft"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Is(fakeMachine(tt.env, tt.files)); got != tt.want {
				t.Errorf("Is = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDriveRoot(t *testing.T) {
	tests := []struct {
		conf string
		want string
	}{
		{"", "/mnt"},
		{"[boot]\nsystemd=true\n", "/mnt"},
		{"[automount]\nenabled = true\nroot = /windir/\n", "/windir"},
		{"[Automount]\n  Root=\"/\"  # the drives at /c\n", "/"},
		{"[automount]\nroot = /win ; comment\n[network]\nroot = /nope\n", "/win"},
		{"[network]\nroot = /nope\n", "/mnt"},
	}
	for _, tt := range tests {
		m := fakeMachine(nil, map[string]string{"/etc/wsl.conf": tt.conf})
		if got := DriveRoot(m); got != tt.want {
			t.Errorf("wsl.conf %q: DriveRoot = %q, want %q", tt.conf, got, tt.want)
		}
	}
	rooted := fakeMachine(nil, map[string]string{"/fake/etc/wsl.conf": "[automount]\nroot=/win\n"})
	rooted.Root = "/fake"
	if got := DriveRoot(rooted); got != "/fake/win" {
		t.Errorf("rooted DriveRoot = %q, want /fake/win", got)
	}
}

func TestPaths(t *testing.T) {
	mt := Mounts{DriveRoot: "/mnt", Distro: "Ubuntu-24.04", IsDir: func(p string) bool { return p == "/mnt/c" || p == "/mnt/d" }}
	toWin := []struct{ linux, win string }{
		{"/mnt/c/Users/ann/AppData", `C:\Users\ann\AppData`},
		{"/mnt/c", `C:\`},
		{"/mnt/d/a b/ü.txt", `D:\a b\ü.txt`},
		{"/home/ann/prof", `\\wsl.localhost\Ubuntu-24.04\home\ann\prof`},
		{"/mnt/wsl/x", `\\wsl.localhost\Ubuntu-24.04\mnt\wsl\x`}, // not a drive letter
	}
	for _, tt := range toWin {
		got, err := mt.ToWindows(tt.linux)
		if err != nil || got != tt.win {
			t.Errorf("ToWindows(%q) = %q, %v; want %q", tt.linux, got, err, tt.win)
		}
	}
	toLinux := []struct{ win, linux string }{
		{`C:\Users\ann\AppData`, "/mnt/c/Users/ann/AppData"},
		{`c:/Program Files/x.exe`, "/mnt/c/Program Files/x.exe"},
		{`D:\`, "/mnt/d"},
		{`\\wsl.localhost\Ubuntu-24.04\home\ann`, "/home/ann"},
		{`\\wsl$\ubuntu-24.04\tmp\x y`, "/tmp/x y"},
	}
	for _, tt := range toLinux {
		got, err := mt.ToLinux(tt.win)
		if err != nil || got != tt.linux {
			t.Errorf("ToLinux(%q) = %q, %v; want %q", tt.win, got, err, tt.linux)
		}
	}
	_, err := mt.ToLinux(`E:\data\prof`)
	var nm *NoMountError
	if !errors.As(err, &nm) || nm.Drive != "E:" || nm.Mount != "/mnt/e" || !strings.Contains(err.Error(), "not mounted") {
		t.Errorf("ToLinux on an unmounted drive: %v", err)
	}
	for _, bad := range []string{`\\server\share\x`, `\\wsl.localhost\Debian\home`, `relative\path`} {
		if _, err := mt.ToLinux(bad); err == nil {
			t.Errorf("ToLinux(%q) succeeded", bad)
		}
	}
	if _, err := (Mounts{DriveRoot: "/mnt"}).ToWindows("/home/x"); err == nil || !strings.Contains(err.Error(), "WSL_DISTRO_NAME") {
		t.Errorf("ToWindows without a distro name: %v", err)
	}
}

func TestFindPowerShell(t *testing.T) {
	mt := Mounts{DriveRoot: "/mnt"}
	notFound := func(string) (string, error) { return "", errors.New("no") }
	fixed := "/mnt/c/Windows/System32/WindowsPowerShell/v1.0/powershell.exe"
	ps, err := FindPowerShell(notFound, func(p string) bool { return p == fixed }, mt)
	if err != nil || ps.Exe != fixed {
		t.Errorf("fallback to the fixed place: %v, %v", ps, err)
	}
	_, err = FindPowerShell(notFound, func(string) bool { return false }, mt)
	if !errors.Is(err, ErrNoPowerShell) || !strings.Contains(err.Error(), "interop") {
		t.Errorf("no powershell: %v", err)
	}
}

package launch

import (
	"fmt"
	"io/fs"
)

// System is what detection reads of the machine, so tests can fake
// macOS, Windows or Linux on any host. Nil funcs behave as "nothing there".
type System struct {
	GOOS     string
	Getenv   func(string) string
	Exists   func(path string) bool // a regular executable file is there (symlinks followed)
	Glob     func(pattern string) ([]string, error)
	LookPath func(name string) (string, error)
	// EvalSymlinks, when set, lets Detect drop a second path of the same
	// type that is a symlink to an already found file.
	EvalSymlinks func(path string) (string, error)
	// ReadFile reads a small file (a Firefox's application.ini, a launcher
	// script, /proc/version, /etc/wsl.conf): Detect tells two launchers of
	// one Firefox apart by it, ReadVersion reads Firefox's version without
	// running it, and WSL is recognised by it.
	ReadFile func(path string) ([]byte, error)
	HomeDir  string
	// Root, when set, is prepended to the fixed system locations (/usr/bin,
	// /opt, /Applications; under WSL /proc, /etc/wsl.conf and the drive
	// mounts), as if the machine's file system started there: a test or a
	// by-hand check hides the installed browsers with it.
	Root string
	// IsDir says a directory exists (WSL detection, the drive mounts).
	IsDir func(path string) bool
	// PreferWindows (--windows, CDPVISOR_WINDOWS=1) makes Resolve pick
	// only Windows browsers under WSL; otherwise a Linux install of a type
	// comes before the Windows one.
	PreferWindows bool
	// WindowsLocalAppData, when set, asks Windows for the user's
	// LocalAppData (C:\Users\<name>\AppData\Local), for when the drive mount
	// holds several users.
	WindowsLocalAppData func() (string, error)
}

// WithDefaults replaces nil funcs so a partly filled System cannot panic.
func (sys System) WithDefaults() System {
	if sys.Getenv == nil {
		sys.Getenv = func(string) string { return "" }
	}
	if sys.Exists == nil {
		sys.Exists = func(string) bool { return false }
	}
	if sys.Glob == nil {
		sys.Glob = func(string) ([]string, error) { return nil, nil }
	}
	if sys.ReadFile == nil {
		sys.ReadFile = func(p string) ([]byte, error) { return nil, fs.ErrNotExist }
	}
	if sys.IsDir == nil {
		sys.IsDir = func(string) bool { return false }
	}
	if sys.LookPath == nil {
		sys.LookPath = func(name string) (string, error) {
			return "", fmt.Errorf("look up %q: no PATH lookup available", name)
		}
	}
	return sys
}

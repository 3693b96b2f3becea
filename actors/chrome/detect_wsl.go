package chrome

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome/wsl"
)

// wslMachine is what package wsl reads of sys.
func wslMachine(sys System) wsl.Machine {
	return wsl.Machine{Getenv: sys.Getenv, ReadFile: sys.ReadFile, IsDir: sys.IsDir, Root: sys.Root}
}

// InWSL reports whether sys is a Linux running under WSL, where the
// Windows browsers are listed too.
func InWSL(sys System) bool {
	sys = sys.withDefaults()
	return sys.GOOS == "linux" && wsl.Is(wslMachine(sys))
}

// WSLMounts translates paths between sys (under WSL) and Windows.
func WSLMounts(sys System) wsl.Mounts {
	return wsl.MountsOf(wslMachine(sys.withDefaults()))
}

// windowsUserDirs are the entries of C:\Users that are no one's own.
var windowsUserDirs = map[string]bool{"default": true, "default user": true, "public": true, "all users": true}

// wslCandidates are the Windows installs seen through the drive mount:
// Program Files, Program Files (x86) and the Windows user's LocalAppData.
func wslCandidates(sys System) []candidate {
	c := path.Join(wsl.DriveRoot(wslMachine(sys)), "c")
	roots := []string{path.Join(c, "Program Files"), path.Join(c, "Program Files (x86)")}
	roots = append(roots, wslLocalAppData(sys, c)...)
	var list []candidate
	for _, root := range roots {
		for _, exe := range windowsExes {
			exe.Source, exe.Windows = SourceSystem, true
			exe.Path = path.Join(root, strings.ReplaceAll(exe.Path, `\`, "/"))
			list = append(list, exe)
		}
	}
	return list
}

// wslLocalAppData finds the Windows user's LocalAppData under the C:
// mount: the only user there, the one named as the Linux user, the one
// Windows names (sys.WindowsLocalAppData), or else every user's.
func wslLocalAppData(sys System, c string) []string {
	matches, _ := sys.Glob(path.Join(c, "Users", "*", "AppData", "Local"))
	var users []string
	for _, m := range matches {
		name := path.Base(path.Dir(path.Dir(m)))
		if !windowsUserDirs[strings.ToLower(name)] {
			users = append(users, m)
		}
	}
	if len(users) <= 1 {
		return users
	}
	if me := sys.Getenv("USER"); me != "" {
		for _, u := range users {
			if strings.EqualFold(path.Base(path.Dir(path.Dir(u))), me) {
				return []string{u}
			}
		}
	}
	if sys.WindowsLocalAppData != nil {
		if win, err := sys.WindowsLocalAppData(); err == nil {
			if p, err := WSLMounts(sys).ToLinux(win); err == nil {
				return []string{p}
			}
		}
	}
	return users
}

// isExe reports whether p names a Windows program.
func isExe(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".exe") }

// askLocalAppData asks Windows, through powershell.exe, for the user's
// LocalAppData.
func askLocalAppData(sys System) (string, error) {
	ps, err := wsl.FindPowerShell(sys.LookPath, sys.Exists, WSLMounts(sys))
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := ps.Run(ctx, wsl.ScriptEnv)
	if err != nil {
		return "", err
	}
	var env struct{ LocalAppData string }
	if err := json.Unmarshal([]byte(out), &env); err != nil || env.LocalAppData == "" {
		return "", fmt.Errorf("powershell.exe %s printed %q, not the LocalAppData folder", wsl.ScriptEnv, out)
	}
	return env.LocalAppData, nil
}

// WindowsProfileDir is ProfileDir for a Windows browser's --user-data-dir:
// a Windows path (C:\Users\ann\prof) is taken through its drive mount; the
// Linux path it returns is what the launch translates back for Windows.
func WindowsProfileDir(sys System, p string) (string, error) {
	if wsl.IsWindowsPath(p) {
		linux, err := WSLMounts(sys).ToLinux(p)
		if err != nil {
			return "", err
		}
		p = linux
	}
	return ProfileDir(p)
}

package detect

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/windows/wsl"
)

// WSLMachine is what package wsl reads of sys.
func WSLMachine(sys launch.System) wsl.Machine {
	return wsl.Machine{Getenv: sys.Getenv, ReadFile: sys.ReadFile, IsDir: sys.IsDir, Root: sys.Root}
}

// InWSL reports whether sys is a Linux running under WSL, where the
// Windows browsers are listed too.
func InWSL(sys launch.System) bool {
	sys = sys.WithDefaults()
	return sys.GOOS == "linux" && wsl.Is(WSLMachine(sys))
}

// WSLMounts translates paths between sys (under WSL) and Windows.
func WSLMounts(sys launch.System) wsl.Mounts {
	return wsl.MountsOf(WSLMachine(sys.WithDefaults()))
}

// askLocalAppData asks Windows, through powershell.exe, for the user's
// LocalAppData.
func askLocalAppData(sys launch.System) (string, error) {
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

// windowsUserDirs are the entries of C:\Users that are no one's own.
var windowsUserDirs = map[string]bool{"default": true, "default user": true, "public": true, "all users": true}

// WindowsLocalAppData finds the Windows user's LocalAppData under the C:
// mount: the only user there, the one named as the Linux user, the one
// Windows names (sys.WindowsLocalAppData), or else every user's.
func WindowsLocalAppData(sys launch.System, c string) []string {
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

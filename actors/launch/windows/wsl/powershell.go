package wsl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"strings"
)

// PowerShellExe is the Windows PowerShell every Windows 10 and 11 has.
const PowerShellExe = "powershell.exe"

// PowerShell runs cdpvisor's scripts on the Windows side.
type PowerShell struct{ Exe string }

// ErrNoPowerShell is returned when powershell.exe cannot be found.
var ErrNoPowerShell = errors.New("powershell.exe not found")

// FindPowerShell looks for powershell.exe on $PATH (WSL appends the
// Windows PATH unless [interop] appendWindowsPath=false), then at its fixed
// place under the C: mount.
func FindPowerShell(lookPath func(string) (string, error), exists func(string) bool, mt Mounts) (PowerShell, error) {
	if lookPath != nil {
		if p, err := lookPath(PowerShellExe); err == nil && p != "" {
			return PowerShell{Exe: p}, nil
		}
	}
	fixed := path.Join(mt.DriveRoot, "c/Windows/System32/WindowsPowerShell/v1.0", PowerShellExe)
	if exists != nil && exists(fixed) {
		return PowerShell{Exe: fixed}, nil
	}
	return PowerShell{}, fmt.Errorf("%w on $PATH nor at %s: cdpvisor starts and stops Windows browsers through it; check that WSL interop is enabled ([interop] in /etc/wsl.conf)", ErrNoPowerShell, fixed)
}

// Command is the powershell.exe command that runs the named script.
func (ps PowerShell) Command(ctx context.Context, name string, params ...Param) (*exec.Cmd, error) {
	text, err := Script(name, params...)
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, ps.Exe, "-NoLogo", "-NoProfile", "-NonInteractive",
		"-ExecutionPolicy", "Bypass", "-EncodedCommand", EncodeCommand(text)), nil
}

// ScriptError is a script that powershell.exe ran and that failed, or a
// powershell.exe that could not run.
type ScriptError struct {
	Script string
	Stderr string
	Err    error
}

func (e *ScriptError) Error() string {
	msg := fmt.Sprintf("powershell.exe %s failed", e.Script)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

func (e *ScriptError) Unwrap() error { return e.Err }

// Run runs the named script and returns what it printed.
func (ps PowerShell) Run(ctx context.Context, name string, params ...Param) (string, error) {
	cmd, err := ps.Command(ctx, name, params...)
	if err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", &ScriptError{Script: name, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return strings.TrimSpace(stdout.String()), nil
}

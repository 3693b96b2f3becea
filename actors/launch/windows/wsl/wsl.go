// Package wsl is what cdpvisor needs to know inside WSL2 to drive a Windows
// browser: whether this Linux is WSL, where the Windows drives are mounted,
// how paths and command lines cross to Windows, and the PowerShell scripts
// that start, watch and stop Windows processes (killing the interop process
// in Linux does not stop the Windows one). Pure functions over a Machine
// seam, so tests run on a fake machine.
package wsl

import (
	"bytes"
	"strings"
)

// Machine is what this package reads of the Linux side. Nil funcs behave
// as "nothing there".
type Machine struct {
	Getenv   func(string) string
	ReadFile func(path string) ([]byte, error)
	IsDir    func(path string) bool
	// Root is prepended to the fixed locations (/proc, /etc/wsl.conf, the
	// drive mounts), as if the file system started there (tests).
	Root string
}

func (m Machine) getenv(k string) string {
	if m.Getenv == nil {
		return ""
	}
	return m.Getenv(k)
}

func (m Machine) readFile(p string) []byte {
	if m.ReadFile == nil {
		return nil
	}
	data, err := m.ReadFile(m.rooted(p))
	if err != nil {
		return nil
	}
	return data
}

func (m Machine) isDir(p string) bool { return m.IsDir != nil && m.IsDir(p) }

func (m Machine) rooted(p string) string {
	if m.Root == "" {
		return p
	}
	return strings.TrimRight(m.Root, "/") + p
}

// Is reports whether this Linux runs under WSL: any of the variable WSL
// sets in its shells, the interop handler it registers with binfmt_misc,
// or "microsoft" in the kernel's version string.
func Is(m Machine) bool {
	if m.getenv("WSL_DISTRO_NAME") != "" {
		return true
	}
	for _, name := range []string{"WSLInterop", "WSLInterop-late"} {
		if m.readFile("/proc/sys/fs/binfmt_misc/"+name) != nil {
			return true
		}
	}
	return bytes.Contains(bytes.ToLower(m.readFile("/proc/version")), []byte("microsoft"))
}

// Distro is this distribution's name, as Windows names it in
// \\wsl.localhost\<name>\ paths ("" when WSL did not say).
func Distro(m Machine) string { return m.getenv("WSL_DISTRO_NAME") }

// PreferWindowsEnv, set to 1, makes --browser chrome (and the default)
// pick the Windows install over the Linux one (as --windows does).
const PreferWindowsEnv = "CDPVISOR_WINDOWS"

package wsl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
)

// DefaultDriveRoot is where WSL mounts the Windows drives when
// /etc/wsl.conf does not say ([automount] root).
const DefaultDriveRoot = "/mnt/"

// DriveRoot is the directory holding the drive mounts (/mnt, so C: is
// /mnt/c), read from /etc/wsl.conf's [automount] root, without a trailing
// slash.
func DriveRoot(m Machine) string {
	root := DefaultDriveRoot
	if v, ok := iniValue(m.readFile("/etc/wsl.conf"), "automount", "root"); ok && v != "" {
		root = v
	}
	return m.rooted(path.Clean("/" + root))
}

// iniValue reads key in [section] of wsl.conf's INI format (case-insensitive
// names, # and ; comments, optional quotes around the value).
func iniValue(data []byte, section, key string) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			in = strings.EqualFold(strings.TrimSpace(line[1:len(line)-1]), section)
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !in || !ok || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		v = strings.TrimSpace(v)
		if q := v[:min(1, len(v))]; q == `"` || q == "'" {
			if end := strings.Index(v[1:], q); end >= 0 {
				return v[1 : 1+end], true
			}
		}
		if i := strings.IndexAny(v, "#;"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		return v, true
	}
	return "", false
}

// Mounts translate paths between the two sides.
type Mounts struct {
	DriveRoot string // /mnt: C: is DriveRoot/c
	Distro    string // for \\wsl.localhost\<Distro>\ paths
	IsDir     func(string) bool
}

// MountsOf reads m's drive root and distribution.
func MountsOf(m Machine) Mounts {
	return Mounts{DriveRoot: DriveRoot(m), Distro: Distro(m), IsDir: m.IsDir}
}

// NoMountError is a Windows path on a drive WSL has not mounted.
type NoMountError struct {
	Path  string // the Windows path
	Drive string // "D:"
	Mount string // where it would be mounted
}

func (e *NoMountError) Error() string {
	return fmt.Sprintf("the Windows path %s is on drive %s, which is not mounted in WSL (no directory %s); mount it (sudo mount -t drvfs %s %s) or use a path on a mounted drive",
		e.Path, e.Drive, e.Mount, e.Drive, e.Mount)
}

// IsWindowsPath reports whether p is written the Windows way: a drive
// letter (C:\x, C:/x) or a UNC path (\\server\share).
func IsWindowsPath(p string) bool {
	return driveLetter(p) != 0 || strings.HasPrefix(p, `\\`)
}

func driveLetter(p string) byte {
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		c := p[0] | 0x20 // lower case
		if c >= 'a' && c <= 'z' {
			return c
		}
	}
	if len(p) == 2 && p[1] == ':' {
		if c := p[0] | 0x20; c >= 'a' && c <= 'z' {
			return c
		}
	}
	return 0
}

// ToLinux turns a Windows path into the path WSL sees it at: C:\x is
// /mnt/c/x; \\wsl.localhost\<this distro>\x and \\wsl$\… are /x.
func (mt Mounts) ToLinux(win string) (string, error) {
	if c := driveLetter(win); c != 0 {
		mount := path.Join(mt.DriveRoot, string(c))
		if mt.IsDir == nil || !mt.IsDir(mount) {
			return "", &NoMountError{Path: win, Drive: strings.ToUpper(string(c)) + ":", Mount: mount}
		}
		rest := strings.ReplaceAll(win[2:], `\`, "/")
		return path.Join(mount, rest), nil
	}
	if strings.HasPrefix(win, `\\`) {
		parts := strings.SplitN(strings.ReplaceAll(win[2:], `/`, `\`), `\`, 3)
		host := strings.ToLower(parts[0])
		if (host == "wsl.localhost" || host == "wsl$") && len(parts) >= 2 {
			if mt.Distro == "" || !strings.EqualFold(parts[1], mt.Distro) {
				return "", fmt.Errorf("the Windows path %s is in the WSL distribution %q, not this one (%q)", win, parts[1], mt.Distro)
			}
			rest := ""
			if len(parts) == 3 {
				rest = parts[2]
			}
			return path.Join("/", strings.ReplaceAll(rest, `\`, "/")), nil
		}
		return "", fmt.Errorf("the Windows path %s is a network share, which WSL does not see as a file path; use a path on a local drive", win)
	}
	return "", fmt.Errorf("%q is not an absolute Windows path (want C:\\… or \\\\wsl.localhost\\…)", win)
}

// ToWindows turns a Linux path into the path Windows sees it at: under a
// drive mount (/mnt/c/x) it is C:\x, anywhere else
// \\wsl.localhost\<distro>\x.
func (mt Mounts) ToWindows(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%q is not an absolute path", p)
	}
	p = path.Clean(p)
	if rel, ok := strings.CutPrefix(p, mt.DriveRoot+"/"); ok {
		drive, rest, _ := strings.Cut(rel, "/")
		if len(drive) == 1 && drive[0] >= 'a' && drive[0] <= 'z' {
			return strings.ToUpper(drive) + `:\` + strings.ReplaceAll(rest, "/", `\`), nil
		}
	}
	if mt.Distro == "" {
		return "", errors.New("the path " + p + " is not on a Windows drive, and WSL_DISTRO_NAME is unset, so its \\\\wsl.localhost\\ name is unknown; use a path under " + mt.DriveRoot + "/c")
	}
	return `\\wsl.localhost\` + mt.Distro + strings.ReplaceAll(p, "/", `\`), nil
}

package detect

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch"
)

// firefoxBuild is what a Firefox install says of itself in its
// application.ini, read without running the browser.
type firefoxBuild struct {
	dir     string // the directory holding application.ini: the install's identity
	version string // as `firefox --version` prints it: "153.7.0esr", "155.0a1"
	esr     bool
}

// maxLauncherScript bounds the launcher scripts followed: a real one is a
// few lines, and anything bigger is not worth reading.
const maxLauncherScript = 16 << 10

// firefoxInstall finds the Firefox build that p runs: it follows symlinks
// and, once, the short launcher scripts distributions put on PATH (Debian's
// /usr/bin/firefox runs `exec firefox-esr "$@"`, Nix's `exec -a "$0"
// /nix/store/…/firefox`). ok is false when no application.ini was found.
func firefoxInstall(sys launch.System, p string) (firefoxBuild, bool) {
	sys = sys.WithDefaults()
	for hop := 0; hop < 2; hop++ {
		real := p
		if sys.EvalSymlinks != nil {
			if r, err := sys.EvalSymlinks(p); err == nil {
				real = r
			}
		}
		if b, ok := readFirefoxBuild(sys, real); ok {
			return b, true
		}
		next := launcherTarget(sys, real)
		if next == "" || pathKey(sys.GOOS, next) == pathKey(sys.GOOS, real) {
			return firefoxBuild{}, false
		}
		p = next
	}
	return firefoxBuild{}, false
}

// readFirefoxBuild reads the application.ini beside exe (Linux, Windows,
// Puppeteer's builds) or in the bundle's Resources (macOS).
func readFirefoxBuild(sys launch.System, exe string) (firefoxBuild, bool) {
	dir := dirName(sys.GOOS, exe)
	dirs := []string{dir}
	if sys.GOOS == "darwin" {
		dirs = append(dirs, joinOS(sys.GOOS, dirName(sys.GOOS, dir), "Resources"))
	}
	for _, d := range dirs {
		data, err := sys.ReadFile(joinOS(sys.GOOS, d, "application.ini"))
		if err != nil {
			continue
		}
		app := iniSection(data, "App")
		version := app["Version"]
		if version == "" || app["Name"] != "" && !strings.EqualFold(app["Name"], "Firefox") {
			continue // not a Firefox of Mozilla's (Thunderbird, a fork)
		}
		esr := strings.Contains(app["SourceRepository"], "mozilla-esr") || esrChannelPrefs(sys, d)
		if esr && !strings.HasSuffix(version, "esr") {
			version += "esr" // as --version says it, which names the channel
		}
		return firefoxBuild{dir: d, version: version, esr: esr}, true
	}
	return firefoxBuild{}, false
}

// esrChannelPrefs reports whether the install's update channel is ESR
// (builds from git name no mozilla-esr repository).
func esrChannelPrefs(sys launch.System, dir string) bool {
	data, err := sys.ReadFile(joinOS(sys.GOOS, dir, "defaults", "pref", "channel-prefs.js"))
	if err != nil {
		return false
	}
	return bytes.Contains(data, []byte(`"app.update.channel", "esr"`))
}

// iniSection returns the keys of one [section] of an ini file.
func iniSection(data []byte, section string) map[string]string {
	keys := map[string]string{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == ';' || line[0] == '#':
		case line[0] == '[':
			in = strings.EqualFold(strings.Trim(line, "[]"), section)
		case in:
			if k, v, ok := strings.Cut(line, "="); ok {
				keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return keys
}

// launcherTarget is what a launcher script at p runs: the one program its
// `exec` lines name literally (a command is looked up on PATH), or "".
func launcherTarget(sys launch.System, p string) string {
	data, err := sys.ReadFile(p)
	if err != nil || len(data) > maxLauncherScript || !bytes.HasPrefix(data, []byte("#!")) {
		return ""
	}
	target := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		for i, f := range fields {
			if f != "exec" {
				continue
			}
			prog := execProgram(fields[i+1:])
			if prog == "" || strings.Contains(prog, "$") {
				continue // `exec "$FIREFOX.real"` names no fixed program
			}
			if target != "" && target != prog {
				return "" // two programs: which one runs is not known here
			}
			target = prog
		}
	}
	if target == "" || hasPathSeparator(sys.GOOS, target) {
		return target
	}
	lp, err := sys.LookPath(target)
	if err != nil {
		return ""
	}
	return lp
}

// execProgram is the program of an exec command's arguments, past its
// options (exec -a NAME PROGRAM); "" when there is none.
func execProgram(args []string) string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-a" && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return ""
	}
	return strings.Trim(strings.TrimRight(args[0], ";"), `"'`)
}

// firefoxInstalls are the Firefox installs Detect found, by the directory
// of their application.ini: two launchers of one Firefox (Debian's
// /usr/bin/firefox script runs firefox-esr) are one install, listed once,
// under its real channel.
type firefoxInstalls map[string]firefoxListed

type firefoxListed struct {
	index int  // in Detect's list
	named bool // its launcher's name says the install's channel
}

// seen reports whether b (of candidate c) is an install listed already.
// A launcher whose name says the real channel (firefox-esr for an ESR)
// replaces one whose name does not; a new install gets its real channel.
func (in firefoxInstalls) seen(sys launch.System, c candidate, b *launch.Browser, found []launch.Browser) bool {
	build, ok := firefoxInstall(sys, b.Path)
	if !ok {
		return false
	}
	named := !build.esr || c.Channel == ChannelESR
	if build.esr {
		b.Channel, b.Name = ChannelESR, firefoxProductName(ChannelESR)
	}
	key := pathKey(sys.GOOS, build.dir)
	if l, dup := in[key]; dup {
		if named && !l.named {
			found[l.index].Path, found[l.index].Source = b.Path, b.Source
			in[key] = firefoxListed{index: l.index, named: true}
		}
		return true
	}
	in[key] = firefoxListed{index: len(found), named: named}
	return false
}

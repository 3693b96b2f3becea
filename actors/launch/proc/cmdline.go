package proc

import "strings"

// ProfileArg returns the profile directory on a browser's command line:
// Chromium's --user-data-dir=DIR, or Firefox's -profile DIR (one dash or
// two, or --profile=DIR). The last one wins, as in both browsers.
func ProfileArg(args []string) (string, bool) {
	dir, found := FlagValue(args, "user-data-dir")
	for i, a := range args {
		name, ok := FirefoxFlagName(a)
		if !ok || name != "profile" {
			continue
		}
		if _, v, hasValue := strings.Cut(a, "="); hasValue && strings.HasPrefix(a, "--") {
			dir, found = v, true
		} else if i+1 < len(args) {
			dir, found = args[i+1], true
		}
	}
	return dir, found
}

// IsHelper reports whether args are a browser's helper rather than
// the browser: Chromium's --type=renderer, gpu-process, …, Firefox's
// -contentproc children.
func IsHelper(args []string) bool {
	if _, ok := FlagValue(args, "type"); ok {
		return true
	}
	for _, a := range args {
		if a == "-contentproc" {
			return true
		}
	}
	return false
}

// SplitFlag reads one "--name[=value]" switch as Chromium does. ok is
// false for anything else: a URL or other positional argument, or "--".
// This is the one Chrome command-line reader of the project: the launch
// flags, the bridge and the fake browser all use it.
func SplitFlag(arg string) (name, value string, hasValue, ok bool) {
	if !strings.HasPrefix(arg, "--") || len(arg) == 2 {
		return "", "", false, false
	}
	name, value, hasValue = strings.Cut(arg[2:], "=")
	return name, value, hasValue, true
}

// FlagName returns the name of a "--name[=value]" argument.
func FlagName(arg string) (string, bool) {
	name, _, _, ok := SplitFlag(arg)
	return name, ok
}

// FlagValue returns the value of --name=value in args, as Chromium reads it
// (the last one wins).
func FlagValue(args []string, name string) (string, bool) {
	var value string
	found := false
	for _, a := range args {
		if n, v, _, ok := SplitFlag(a); ok && n == name {
			value, found = v, true
		}
	}
	return value, found
}

// FirefoxFlagName returns the lower-case name of a "-name", "--name" or
// "--name=value" argument.
func FirefoxFlagName(arg string) (string, bool) {
	name, ok := strings.CutPrefix(arg, "-")
	if !ok {
		return "", false
	}
	name = strings.TrimPrefix(name, "-")
	name, _, _ = strings.Cut(name, "=")
	if name == "" {
		return "", false
	}
	return strings.ToLower(name), true
}

package chrome

import "strings"

// ProfileArg returns the profile directory on a browser's command line:
// Chromium's --user-data-dir=DIR, or Firefox's -profile DIR (one dash or
// two, or --profile=DIR). The last one wins, as in both browsers.
func ProfileArg(args []string) (string, bool) {
	dir, found := FlagValue(args, "user-data-dir")
	for i, a := range args {
		name, ok := firefoxFlagName(a)
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

// helperProcess reports whether args are a browser's helper rather than
// the browser: Chromium's --type=renderer, gpu-process, …, Firefox's
// -contentproc children.
func helperProcess(args []string) bool {
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

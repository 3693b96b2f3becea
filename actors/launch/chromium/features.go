package chromium

import (
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// headlessUIFeatures are features of the browser's own UI that a headless
// browser cannot show, but whose WebUI pages Chromium starts anyway, in a
// renderer of their own for every browser context (--type=renderer
// --top-chrome-webui): the omnibox popup's page, preloaded. With worlds a
// context each, that renderer is most of what a world costs besides its
// pages. Measured on Chromium 156.0.8078.129 headless, 5 contexts with a
// page each: 6 such renderers and 704 MB PSS; with both features disabled
// none and 435 MB; with either alone still 6 (the others the issue named,
// OmniboxAimPopup, PreloadTopChromeWebUI, WebUIOmniboxFullPopup, change
// nothing). Chromium 148 runs none either way. docs/performance.md, "A
// world costs only its pages".
var headlessUIFeatures = []string{"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}

// disabledFeatures is the one --disable-features a launch gets, and the
// caller's extra arguments without theirs: Chromium reads the last
// --disable-features alone, so the caller's names and a headless launch's
// UI features are joined into one. A feature the caller enables with
// --enable-features is left on. "" when there is none to disable.
func disabledFeatures(headless bool, extra []string) (string, []string) {
	var names []string
	enabled := map[string]bool{}
	rest := make([]string, 0, len(extra))
	for _, a := range extra {
		name, value, _, ok := proc.SplitFlag(a)
		switch {
		case ok && name == "disable-features":
			names = appendFeatures(names, value)
			continue
		case ok && name == "enable-features":
			for _, f := range strings.Split(value, ",") {
				enabled[featureName(f)] = true
			}
		}
		rest = append(rest, a)
	}
	if headless {
		for _, f := range headlessUIFeatures {
			if !enabled[f] {
				names = appendFeatures(names, f)
			}
		}
	}
	return strings.Join(names, ","), rest
}

// appendFeatures adds a comma-separated list's names to names, each once.
func appendFeatures(names []string, list string) []string {
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	return names
}

// featureName is a --enable-features entry's feature: "*Name<Trial.Group:p/v"
// names Name.
func featureName(entry string) string {
	entry = strings.TrimPrefix(strings.TrimSpace(entry), "*")
	if i := strings.IndexAny(entry, "<:"); i >= 0 {
		entry = entry[:i]
	}
	return entry
}

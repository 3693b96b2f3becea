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

// A headless launch runs a site's pages of one browser context in one
// renderer (--process-per-site): a world's agent that opens a second page
// of the site it works on costs no second renderer. Measured with Chromium
// 156 (docs/performance.md, "What a world costs, and what cannot be had"):
// 5 agents with 2 pages each, 680 MB PSS become 621; the cost of a world
// added grows by 55 MB instead of 63. Sites stay apart, and so do worlds
// (a context's pages never share a renderer with another's); what a
// site's pages of one world share is a renderer's time, and its crash.
// A headed browser keeps Chromium's own model, a person's tabs each
// apart; --browser-arg --no-process-per-site (a switch Chromium ignores)
// keeps it headless too.
const noProcessPerSite = "no-process-per-site"

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

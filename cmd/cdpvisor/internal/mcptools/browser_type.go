package mcptools

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/launch/detect"
)

// typeParam is the browser type argument of coordinator_launch_browser
// and browser_instance: a type name, where browser also takes a path.
func typeParam(prefix, more string) param {
	return param{name: "type", want: "a string: chrome, edge, chromium, brave or firefox", schema: map[string]any{"type": "string",
		"enum": detect.TypeNames(), "description": prefix + "the browser type, its preferred install: chrome = Google Chrome, edge = Microsoft Edge, " +
			"chromium = Chromium, brave = Brave, firefox = Firefox (WebDriver BiDi at the endpoint's /session, not CDP). " +
			"The same as browser with a type name; give one of the two. " + more}}
}

// browserOrType folds the type argument into browser: one of the two, and
// type must name a type.
func browserOrType(browserArg, typeArg *string) (*string, error) {
	if typeArg == nil {
		return browserArg, nil
	}
	if !slices.Contains(detect.TypeNames(), strings.ToLower(strings.TrimSpace(*typeArg))) {
		return nil, fmt.Errorf("unknown browser type %q: want one of %s (or give a path as browser)", *typeArg, strings.Join(detect.TypeNames(), ", "))
	}
	if browserArg != nil {
		return nil, errors.New("give type or browser, not both: type is a browser type (chrome, firefox, …), browser a type or a path")
	}
	return typeArg, nil
}

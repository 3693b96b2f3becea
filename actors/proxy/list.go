package proxy

import (
	"bytes"
	"encoding/json"
	"strings"
)

// isList says path asks for the list of targets.
func isList(path string) bool {
	switch strings.TrimSuffix(path, "/") {
	case "/json", "/json/list":
		return true
	}
	return false
}

// listEntry is what the endpoint reads of a /json/list entry.
type listEntry struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// hiddenTargetType is a target of the browser's own UI (the omnibox popup
// and such) that Chromium 156 lists in /json/list; a plain Chromium's list,
// as clients expect it, has none (Chromium 148 headless lists none).
const hiddenTargetType = "browser_ui"

// withoutBrowserUI drops the browser's own UI targets from a /json/list
// answer; an answer without any is returned as it came.
func withoutBrowserUI(body []byte) []byte {
	if !bytes.Contains(body, []byte(hiddenTargetType)) {
		return body
	}
	return filterList(body, func(e listEntry) bool { return e.Type != hiddenTargetType })
}

// filterList keeps the /json/list entries keep says yes to, written as
// Chromium writes the list (indented by three spaces). An answer that is
// not a list is returned as it came.
func filterList(body []byte, keep func(listEntry) bool) []byte {
	var entries []json.RawMessage
	if json.Unmarshal(body, &entries) != nil {
		return body
	}
	kept := make([]json.RawMessage, 0, len(entries))
	for _, raw := range entries {
		var e listEntry
		if json.Unmarshal(raw, &e) == nil && keep(e) {
			kept = append(kept, raw)
		}
	}
	out, err := json.MarshalIndent(kept, "", "   ")
	if err != nil {
		return body
	}
	return append(out, '\n')
}

package proxy

import "encoding/json"

// listEntry is what the endpoint reads of a /json/list entry.
type listEntry struct {
	ID string `json:"id"`
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

package worldapi

import "encoding/json"

// Seed is the body of PUT Path/NAME that seeds the world it
// makes or finds: a Playwright storage state to import, the origins to
// copy from the user's own browser (--attach), or another world to copy
// from (only Origins' storage when given). The MCP tool browser_context
// takes the same fields as arguments.
type Seed struct {
	StorageState    json.RawMessage `json:"storage_state,omitempty"`
	FromUserBrowser []string        `json:"from_user_browser,omitempty"`
	FromWorld       string          `json:"from_world,omitempty"`
	Origins         []string        `json:"origins,omitempty"`
}

// Empty says the seed gives nothing: the request only makes the world.
func (s Seed) Empty() bool {
	return len(s.StorageState) == 0 && len(s.FromUserBrowser) == 0 && s.FromWorld == "" && len(s.Origins) == 0
}

// Seeded is what a seed gave a world.
type Seeded struct {
	Cookies int `json:"cookies"` // cookies set into it
	Origins int `json:"origins"` // origins whose localStorage was set into it
	// Notes say what of the seed could not be given, and why (an origin
	// of the user's browser no tab shows: its cookies alone).
	Notes []string `json:"notes,omitempty"`
}

// StorageStatePath is, under a world's path (/context/NAME), where its
// storage state is: GET exports it (Playwright's JSON), PUT imports one.
const StorageStatePath = "/storage-state"

// JournalPath is, under a world's path (/context/NAME), where its journal
// is read (actors/journal): JSON lines, ?since= an entry's seq or a time,
// ?wait= how long to wait for the next entry when there is none yet.
const JournalPath = "/journal"

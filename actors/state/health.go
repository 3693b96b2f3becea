package state

import "github.com/cdpvisor/cdpvisor/actors/browser"

// HealthPath answers without launching a browser: wrap and status use it to
// tell a live coordinator from a stale state file whose port was reused.
const HealthPath = "/cdpvisor/health"

// Health is the answer on HealthPath.
type Health struct {
	PID      int             `json:"pid"`
	Instance string          `json:"instance"`
	Port     int             `json:"port"`
	Clients  int             `json:"clients"`
	Browser  *browser.Status `json:"browser,omitempty"`
}

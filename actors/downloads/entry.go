package downloads

// Download states, as download_list and download_wait show them.
const (
	InProgress = "in_progress"
	Completed  = "completed"
	Canceled   = "canceled"
)

// Entry is one download as the MCP tools show it.
type Entry struct {
	ID       string `json:"id"`       // Chromium's guid for it
	URL      string `json:"url"`      // where it came from
	Filename string `json:"filename"` // the name the site suggested
	// Path is where the file is (completed) or will be (in progress); ""
	// for a canceled download, which leaves no file.
	Path          string `json:"path"`
	State         string `json:"state"`
	ReceivedBytes int64  `json:"received_bytes"`
	TotalBytes    int64  `json:"total_bytes"` // 0 when the server did not say
	// Context is the world (/context/NAME) whose page began it, and whose
	// folder under the instance's it lands in; "" outside any world.
	Context string `json:"context,omitempty"`
}

// In says the download belongs to world ("" for any download).
func (e Entry) In(world string) bool { return world == "" || e.Context == world }

// Finished says the download will not change any more.
func (e Entry) Finished() bool { return e.State != InProgress }

// stateOf maps Chromium's download states (Browser.downloadProgress).
func stateOf(chromium string) string {
	switch chromium {
	case "completed":
		return Completed
	case "canceled":
		return Canceled
	}
	return InProgress
}

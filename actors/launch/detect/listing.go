package detect

import "github.com/cdpvisor/cdpvisor/actors/launch"

// Listed is a detected browser as `cdpvisor browsers --json` and the MCP
// tool coordinator_list_browsers show it: launch.Browser with every field
// always present, so a script reads channel and source without checking
// for them, and with the protocol it speaks.
type Listed struct {
	Name    string      `json:"name"`
	Type    launch.Type `json:"type"`
	Path    string      `json:"path"`
	Version string      `json:"version"`
	Channel string      `json:"channel"`
	Source  string      `json:"source"`
	// Protocol is what a client speaks to it: cdp, or bidi (Firefox).
	Protocol launch.Protocol `json:"protocol"`
	// Windows: a Windows browser seen from WSL (Path is its drive-mount path).
	Windows bool `json:"windows"`
}

// ListedOf is b as the listings show it.
func ListedOf(b launch.Browser) Listed {
	return Listed{b.Name, b.Type, b.Path, b.Version, b.Channel, b.Source, b.Protocol(), b.Windows}
}

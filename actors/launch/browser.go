package launch

// Type is a browser product: the Chromium family, or Firefox.
type Type string

const (
	Chrome   Type = "chrome"
	Edge     Type = "edge"
	Chromium Type = "chromium"
	Brave    Type = "brave"
	Firefox  Type = "firefox" // Firefox, ESR, Developer Edition and Nightly: channels of one type
)

// Types lists every type in preference order: Detect and Resolve("")
// favour the first ones installed. Firefox comes last: it speaks WebDriver
// BiDi, not CDP, so it is never the default.
var Types = []Type{Chrome, Edge, Chromium, Brave, Firefox}

// browserNames are the product names shown to users.
var browserNames = map[Type]string{
	Chrome:   "Google Chrome",
	Edge:     "Microsoft Edge",
	Chromium: "Chromium",
	Brave:    "Brave",
	Firefox:  "Firefox",
}

// Browser is one installed browser executable.
type Browser struct {
	Name    string `json:"name"`
	Type    Type   `json:"type"`
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
	// Channel is the release channel (stable, beta, dev, canary; snapshot
	// for Chromium snapshot builds), "" when unknown.
	Channel string `json:"channel,omitempty"`
	// Source says how it was found: system, path, cdpvisor, playwright,
	// puppeteer or user (see the Source constants).
	Source string `json:"source,omitempty"`
	// Windows marks a Windows browser seen from WSL: Path is where the drive
	// mount shows it (/mnt/c/…/chrome.exe); it is started and stopped
	// through powershell.exe.
	Windows bool `json:"windows,omitempty"`
}

// Product is the name users know the type by ("Google Chrome").
func (t Type) Product() string { return browserNames[t] }

package browser

import (
	"time"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
)

// Endpoint is a running browser as its subscribers and callers see it.
type Endpoint struct {
	Instance    string
	Generation  int
	Pid         int
	WSURL       string // the browser's own websocket URL (changes every launch)
	HostPort    string // the browser's debugging host:port
	UserDataDir string
	TempProfile bool
	TempDir     string // the launch's own temporary directory ("" when attached)
	Headless    bool
	Browser     chrome.Browser
	Ownership   string // "launched" or "attached"
}

// DebugPort is the port of the browser's debugging endpoint ("" if unknown).
func (e Endpoint) DebugPort() string {
	for i := len(e.HostPort) - 1; i >= 0; i-- {
		if e.HostPort[i] == ':' {
			return e.HostPort[i+1:]
		}
	}
	return ""
}

// Ready tells subscribers a launch finished.
type Ready struct{ Endpoint Endpoint }

// Exited tells subscribers a browser is gone. Planned exits are
// stops and restarts; unplanned ones are crashes and kills from outside.
type Exited struct {
	Instance   string
	Generation int
	Pid        int
	Planned    bool
	Err        error
}

// ExitRecord is what status reports about the last exit.
type ExitRecord struct {
	At         time.Time `json:"at"`
	Generation int       `json:"generation"`
	Planned    bool      `json:"planned"`
	Cause      string    `json:"cause"`
}

// Status is a snapshot of a Actor.
type Status struct {
	State       string         `json:"state"`
	Generation  int            `json:"generation"`
	Pid         int            `json:"pid,omitempty"`
	Browser     chrome.Browser `json:"browser"`
	Headless    bool           `json:"headless"`
	UserDataDir string         `json:"user_data_dir,omitempty"`
	TempProfile bool           `json:"temp_profile"`
	DebugPort   int            `json:"debug_port,omitempty"`
	StartedAt   *time.Time     `json:"started_at,omitempty"`
	LastExit    *ExitRecord    `json:"last_exit,omitempty"`
	// Options are those of the last launch (or the configured ones): a
	// restart reuses them.
	Options chrome.LaunchOptions `json:"-"`
}

// Requests a Actor hears. Each carries its reply channel
// (buffered, so the actor never blocks on a caller that gave up).
type (
	ensureRunning struct{ reply chan launchResult }
	launchBrowser struct {
		opts  *chrome.LaunchOptions // nil: the options of the last launch
		reply chan launchResult
	}
	replaceBrowser struct {
		gen   int
		reply chan launchResult
	}
	stopBrowser   struct{ reply chan error }
	browserStatus struct{ reply chan Status }
	subscribe     struct {
		ch    chan any
		reply chan func()
	}
	unsubscribe struct{ ch chan any }
)

type launchResult struct {
	ep  Endpoint
	err error
}

// Reports from the goroutines a Actor owns.
type (
	launchDone struct {
		gen  int
		proc *chrome.Process
		err  error
	}
	processExited struct{ gen int }
	stopDone      struct {
		gen int
		err error
	}
	cleanupDone struct { // the leftovers of an unplanned exit are gone
		gen int
		err error
	}
)

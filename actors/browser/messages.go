package browser

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Endpoint is a running browser as its subscribers and callers see it.
type Endpoint struct {
	Instance    string
	Generation  int
	Pid         int
	WindowsPid  int    // a Windows browser's (inside WSL); Pid is 0 then
	WSURL       string // the browser's own websocket URL (changes every launch)
	HostPort    string // the browser's debugging host:port
	UserDataDir string
	TempProfile bool
	TempDir     string // the launch's own temporary directory ("" when attached)
	Headless    bool
	Browser     launch.Browser
	Ownership   string               // "launched" or "attached"
	Identity    proc.BrowserIdentity // tells this browser from a later process with its pid
	// Reach is how the browser's port is reached: nil directly, else
	// through a helper (a Windows browser under WSL's NAT networking).
	Reach launch.Reach
}

// Dial opens one of the browser's websockets (url as the browser names
// it), directly or through the endpoint's Reach.
func (e Endpoint) Dial(ctx context.Context, url string, limit int64) (transport.Conn, error) {
	return launch.DialWebSocket(ctx, e.Reach, url, limit)
}

// HTTPClient is the client for the browser's /json surface: direct, or
// through the endpoint's Reach.
func (e Endpoint) HTTPClient(direct *http.Client) *http.Client {
	return launch.HTTPClient(e.Reach, direct)
}

// DebugPort is the port of the browser's debugging endpoint (0 if unknown).
func (e Endpoint) DebugPort() int {
	i := strings.LastIndexByte(e.HostPort, ':')
	port, _ := strconv.Atoi(e.HostPort[i+1:])
	return port
}

// Exit causes.
const (
	CauseStopped = "stopped" // cdpvisor stopped it (stop, restart, switch, shutdown)
	CauseCrash   = "crash"   // it ended without being asked: a crash, a kill from outside
	CauseGone    = "gone"    // an attached browser stopped answering
	CauseHung    = "hung"    // it answered nothing for the hang timeout and was killed
	CauseIdle    = "idle"    // stopped after the idle time with no client
)

// ExitRecord is what status reports about an exit.
type ExitRecord struct {
	At         time.Time `json:"at"`
	Generation int       `json:"generation"`
	Planned    bool      `json:"planned"`
	Cause      string    `json:"cause"`            // CauseStopped, CauseIdle, CauseCrash, CauseHung, CauseGone
	Code       *int      `json:"code,omitempty"`   // its exit code, when it exited by itself
	Signal     string    `json:"signal,omitempty"` // the signal that ended it (SIGKILL, …)
}

// Status is a snapshot of a BrowserActor.
type Status struct {
	State       string         `json:"state"`
	Generation  int            `json:"generation"`
	Pid         int            `json:"pid,omitempty"`
	WindowsPid  int            `json:"windows_pid,omitempty"` // a Windows browser's (inside WSL)
	Browser     launch.Browser `json:"browser"`
	Headless    bool           `json:"headless"`
	UserDataDir string         `json:"user_data_dir,omitempty"`
	TempProfile bool           `json:"temp_profile"`
	DebugPort   int            `json:"debug_port,omitempty"`
	StartedAt   *time.Time     `json:"started_at,omitempty"`
	LastExit    *ExitRecord    `json:"last_exit,omitempty"`
	// LastLaunchError is why the last launch failed, while no launch has
	// succeeded since.
	LastLaunchError string `json:"last_launch_error,omitempty"`
	// NextLaunchAt, while the launch backoff holds demands back after
	// failed launches, is when a demand launches again (an explicit launch
	// or restart does at once).
	NextLaunchAt *time.Time `json:"next_launch_at,omitempty"`
	// Restarts counts the launches that worked after the first one.
	Restarts int `json:"restarts"`
}

// request is what a BrowserActor's mailbox carries: a closed set, the
// types below and no others, each with its case in handle.
type request interface{ isBrowserRequest() }

// Requests a BrowserActor hears. Each carries its reply channel
// (buffered, so the actor never blocks on a caller that gave up).
type (
	ensureRunning struct{ reply chan launchResult }
	launchBrowser struct {
		change Change
		reply  chan launchResult
	}
	restartBrowser struct {
		force bool // restart even a browser that just started
		reply chan launchResult
	}
	replaceBrowser struct {
		gen   int
		reply chan launchResult
	}
	stopBrowser   struct{ reply chan error }
	browserStatus struct{ reply chan Status }
	subscribe     struct {
		sub   subscription
		reply chan func()
	}
	unsubscribe    struct{ ch chan<- Event }
	clientsChanged struct{ n int }
	touch          struct{}
)

func (ensureRunning) isBrowserRequest()  {}
func (launchBrowser) isBrowserRequest()  {}
func (restartBrowser) isBrowserRequest() {}
func (replaceBrowser) isBrowserRequest() {}
func (stopBrowser) isBrowserRequest()    {}
func (browserStatus) isBrowserRequest()  {}
func (subscribe) isBrowserRequest()      {}
func (unsubscribe) isBrowserRequest()    {}
func (clientsChanged) isBrowserRequest() {}
func (touch) isBrowserRequest()          {}

type launchResult struct {
	ep  Endpoint
	err error
}

// report is what the goroutines a BrowserActor owns tell it: a closed
// set, the types below, each with its case in handleReport.
type report interface{ isBrowserReport() }

// Reports from the goroutines a BrowserActor owns.
type (
	launchDone struct {
		gen      int
		proc     *launch.Process
		identity proc.BrowserIdentity
		err      error
	}
	processExited struct{ gen int }
	stopDone      struct {
		gen  int
		err  error
		died bool // it had exited by itself before it was stopped
	}
	cleanupDone struct { // the leftovers of an unplanned exit are gone
		gen int
		err error
	}
	probeDone struct { // the hang probe of gen ended
		gen    int
		silent time.Duration
		hung   bool
	}
)

func (launchDone) isBrowserReport()    {}
func (processExited) isBrowserReport() {}
func (stopDone) isBrowserReport()      {}
func (cleanupDone) isBrowserReport()   {}
func (probeDone) isBrowserReport()     {}

package launch

import (
	"time"

	"github.com/rs/zerolog"
)

// Options say how to start a browser. The zero value plus an
// executable is a headed launch on a fresh temporary profile; callers set
// Headless explicitly.
type Options struct {
	Browser     Browser  // the executable and what it is
	Headless    bool     // --headless=new
	UserDataDir string   // "" = a fresh temporary profile, removed after exit
	ExtraArgs   []string // appended last; a flag named here replaces the default of that name

	DebugPort int // 0 = any free port (Chromium picks and announces it)
	// Attachable: other runs on the same profile attach to this browser by
	// its DevToolsActivePort (a bridge's browser on a profile the tool
	// named: the next tool on that profile shares it, and a headed one
	// outlives the bridge for the next run). A Chromium then keeps a
	// debugging port: a pipe has no other end for them, and would end the
	// browser with cdpvisor.
	Attachable bool
	// Log takes what the browser's connection notices (a piped browser's);
	// the zero value logs nothing.
	Log zerolog.Logger

	ReadyTimeout time.Duration // 0 = ReadyTimeout
	StopGrace    time.Duration // 0 = StopGrace: how long SIGTERM gets before SIGKILL

	// Guard is told of each launch before its browser exists (the
	// coordinator's watchdog); nil guards nothing.
	Guard Guard
}

// Grace is how long a stop's SIGTERM gets before SIGKILL.
func (o Options) Grace() time.Duration { return orDefault(o.StopGrace, StopGrace) }

// ReadyLimit is how long the launch may take to be ready.
func (o Options) ReadyLimit() time.Duration { return orDefault(o.ReadyTimeout, ReadyTimeout) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

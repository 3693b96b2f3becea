package launch

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
)

// Readiness and shutdown limits of the design page.
const (
	ReadyTimeout = 15 * time.Second
	StopGrace    = 5 * time.Second
	killWait     = 5 * time.Second
)

// TempPrefix starts the name of every temporary directory a launch creates,
// followed by the coordinator's pid, so a reaper can tell whose it was.
const TempPrefix = "cdpv-"

// Process is one running browser of any family: the facts of its launch and
// the lifecycle they all share. Its owner (a BrowserActor) calls Stop or
// Detach exactly once when it is done with it, after a planned stop or an
// unplanned exit alike. What differs between a browser cdpvisor spawned, a
// Windows browser run through powershell.exe and one found running is its
// Host.
type Process struct {
	Facts
	host Host
	// guarded is the launch as its Guard holds it, released once this
	// process has stopped the browser (or let it go) itself.
	guarded Guarded

	stopOnce sync.Once
	stopErr  error
}

// Host is how one browser runs: the part of a Process that differs between
// a local process group, a Windows browser seen from WSL, and an attached
// browser (never killed, its profile never removed).
type Host interface {
	// Exited is closed once the browser has exited (attached: stopped
	// answering, or let go).
	Exited() <-chan struct{}
	ExitStatus() proc.ExitStatus
	// Identity tells the browser of f from a process that reuses its pid.
	Identity(f Facts) proc.BrowserIdentity
	// Kill ends it at once (a hung browser); Stop still follows.
	Kill() error
	// Stop ends it (gracefully, then by force) and removes what its launch
	// created; an attached one is only let go.
	Stop(f Facts) error
	// Detach lets it outlive cdpvisor.
	Detach()
}

// NewProcess is the Process of a browser that host runs.
func NewProcess(f Facts, host Host) *Process {
	return &Process{Facts: f, host: host, guarded: unguarded{}}
}

// GuardLaunch has g hold this launch (its temporary directory and profile
// known, its browser not spawned yet); call it right before the spawn.
func (p *Process) GuardLaunch(ctx context.Context, g Guard) (err error) {
	p.guarded, err = guard(ctx, g, p.Facts)
	if err != nil {
		p.guarded = unguarded{}
		return fmt.Errorf("the watchdog cannot guard the launch: %w", err)
	}
	return nil
}

// GuardSpawned tells the guard how the browser is known: right after the
// spawn, and again once it is ready.
func (p *Process) GuardSpawned() { p.guarded.Spawned(p.host.Identity(p.Facts)) }

// ReleaseGuard is for a launch that failed before its browser existed,
// once what it made is removed.
func (p *Process) ReleaseGuard() { p.guarded.Release() }

// Facts are what a launch found out about its browser.
type Facts struct {
	Browser     Browser
	Args        []string
	Pid         int
	WSURL       string // the browser websocket URL it announced
	HostPort    string // host:port of its debugging endpoint
	Port        int
	UserDataDir string
	TempProfile bool   // UserDataDir was created by cdpvisor and is removed by Stop
	TempDir     string // the launch's own temporary directory ("" when attached)
	Attached    bool   // cdpvisor found it running: it is never killed, its profile never removed
	// WindowsPid is a Windows browser's pid (cdpvisor inside WSL); Pid is 0
	// then: the browser has no Linux pid.
	WindowsPid int
	// Reach is how its debugging port is reached: nil directly, else
	// through a helper (a Windows browser under WSL's NAT networking).
	Reach Reach
}

// Describe returns the facts of the launch.
func (p *Process) Describe() Facts { return p.Facts }

// Identity is what tells this browser from a process that reuses its pid
// later (for the watchdog and the reaper).
func (p *Process) Identity() proc.BrowserIdentity { return p.host.Identity(p.Facts) }

// Exited is closed when the browser has exited (or, attached, stopped answering).
func (p *Process) Exited() <-chan struct{} { return p.host.Exited() }

// WaitExit reports whether the process exits within d (0: has it exited).
func (p *Process) WaitExit(d time.Duration) bool { return ClosedWithin(p.host.Exited(), d) }

// ExitStatus says how the process ended; valid once Exited is closed. An
// attached browser's end is not known beyond "it stopped answering".
func (p *Process) ExitStatus() proc.ExitStatus { return p.host.ExitStatus() }

// Kill ends the browser at once, for a browser that no longer answers;
// Stop still has to be called to clean up. An attached browser is never killed.
func (p *Process) Kill() error {
	if p.Attached {
		return nil
	}
	return p.host.Kill()
}

// Stop ends the browser and removes what its launch created (never a
// profile the user supplied); an attached browser is only let go. Safe to
// call more than once.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() {
		if p.stopErr = p.host.Stop(p.Facts); p.stopErr == nil {
			p.guarded.Release() // a browser that would not exit stays the guard's
		}
	})
	return p.stopErr
}

// Detach lets go of a launched browser that should outlive this process:
// it keeps running on its profile, which is kept.
func (p *Process) Detach() {
	p.stopOnce.Do(func() {
		p.host.Detach()
		p.guarded.Release()
	})
}

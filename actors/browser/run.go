package browser

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// browserRun is the state a Actor owns during one Serve call. Only
// the Serve goroutine touches it.
type browserRun struct {
	a       *Actor
	ctx     context.Context
	log     zerolog.Logger
	machine *fsm.Machine
	reports chan any      // from the goroutines below
	quit    chan struct{} // closed when the run is over: ends those goroutines
	workers int           // goroutines whose report is still due

	opts         chrome.LaunchOptions
	gen          int
	proc         *chrome.Process
	startedAt    time.Time
	cancelLaunch context.CancelFunc
	relaunch     bool // launch again once the current launch or stop is over
	waiters      []chan launchResult
	stopWaiters  []chan error
	lastExit     *ExitRecord
	subscribers  map[chan any]struct{}
}

func newBrowserRun(a *Actor, ctx context.Context) *browserRun {
	r := &browserRun{
		a:           a,
		ctx:         ctx,
		log:         a.spec.Log,
		reports:     make(chan any),
		quit:        make(chan struct{}),
		opts:        a.spec.Launch,
		subscribers: map[chan any]struct{}{},
	}
	r.machine = fsm.NewBrowserMachine(func(t fsm.Transition) {
		ev := r.log.Info().Str("machine", "browser").Str("event", t.Event).Str("from", t.From).Str("runtimeState", t.To).
			Int("generation", r.gen).Str("ownership", r.ownership()).Str("userDataDir", r.profileDir())
		if r.proc != nil {
			ev = ev.Int("pid", r.proc.Pid).Int("resolvedDebugPort", r.proc.Port)
		}
		ev.Msg("browser state")
	})
	return r
}

func (r *browserRun) ownership() string {
	if r.proc != nil && r.proc.Attached {
		return "attached"
	}
	return "launched"
}

func (r *browserRun) profileDir() string {
	if r.proc != nil {
		return r.proc.UserDataDir
	}
	return r.opts.UserDataDir
}

func (r *browserRun) handle(m any) {
	switch m := m.(type) {
	case ensureRunning:
		r.ensure(m.reply)
	case replaceBrowser:
		if r.machine.Is(fsm.BrowserRunning) && r.gen == m.gen {
			r.handle(launchBrowser{reply: m.reply})
		} else {
			r.ensure(m.reply)
		}
	case launchBrowser:
		if m.opts != nil {
			r.opts = *m.opts
		}
		r.waiters = append(r.waiters, m.reply)
		r.relaunch = true
		switch r.machine.State() {
		case fsm.BrowserIdle:
			r.startLaunch()
		case fsm.BrowserRunning:
			r.beginStop()
		case fsm.BrowserLaunching:
			r.cancelLaunch() // its failure report starts the new launch
		}
	case stopBrowser:
		r.relaunch = false
		switch r.machine.State() {
		case fsm.BrowserIdle:
			m.reply <- nil
		case fsm.BrowserRunning:
			r.stopWaiters = append(r.stopWaiters, m.reply)
			r.beginStop()
		case fsm.BrowserLaunching:
			r.stopWaiters = append(r.stopWaiters, m.reply)
			r.cancelLaunch()
		default: // stopping
			r.stopWaiters = append(r.stopWaiters, m.reply)
		}
	case browserStatus:
		m.reply <- r.status()
	case subscribe:
		r.subscribers[m.ch] = struct{}{}
		m.reply <- func() {
			select {
			case r.a.mailbox <- unsubscribe{ch: m.ch}:
			case <-r.quit:
			}
		}
	case unsubscribe:
		delete(r.subscribers, m.ch)
	}
}

func (r *browserRun) ensure(reply chan launchResult) {
	if r.machine.Is(fsm.BrowserRunning) {
		reply <- launchResult{ep: r.endpoint()}
		return
	}
	r.waiters = append(r.waiters, reply)
	switch r.machine.State() {
	case fsm.BrowserIdle:
		r.startLaunch()
	case fsm.BrowserLaunching:
		// served by the launch under way
	default:
		r.relaunch = true // a stop is under way: launch after it
	}
}

func (r *browserRun) startLaunch() {
	r.relaunch = false
	r.gen++
	if err := r.machine.Fire(fsm.BrowserLaunch); err != nil {
		r.log.Error().Err(err).Msg("browser machine")
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.cancelLaunch = cancel
	gen, opts, log := r.gen, r.opts, r.log.With().Int("generation", r.gen).Logger()
	r.go_(func() any {
		proc, err := chrome.StartOrAttach(ctx, opts, func(line string) { log.Debug().Str("stderr", line).Msg("browser") })
		return launchDone{gen: gen, proc: proc, err: err}
	})
}

// go_ runs work in a goroutine owned by this run; its report comes back
// through r.reports, or is dropped (after cleanup) if the run is over.
func (r *browserRun) go_(work func() any) {
	r.workers++
	go func() {
		m := work()
		select {
		case r.reports <- m:
		case <-r.quit:
			if d, ok := m.(launchDone); ok && d.proc != nil {
				_ = d.proc.Stop()
			}
		}
	}()
}

func (r *browserRun) handleReport(m any) {
	switch m := m.(type) {
	case launchDone:
		r.workers--
		r.cancelLaunch()
		r.launched(m)
	case processExited:
		if m.gen == r.gen && r.machine.Is(fsm.BrowserRunning) {
			r.exited()
		}
	case stopDone:
		r.workers--
		r.stopped(m)
	case cleanupDone:
		r.workers--
		if m.err != nil {
			r.log.Error().Err(m.err).Int("generation", m.gen).Msg("cleanup after the browser's exit")
		}
	}
}

func (r *browserRun) launched(m launchDone) {
	if m.err != nil {
		_ = r.machine.Fire(fsm.BrowserLaunchFailed)
		r.log.Warn().Err(m.err).Int("generation", m.gen).Msg("browser launch failed")
		if r.relaunch && len(r.stopWaiters) == 0 {
			r.startLaunch()
			return
		}
		err := m.err
		if len(r.stopWaiters) > 0 {
			err = ErrStopped
		}
		r.failWaiters(err)
		r.answerStops(nil)
		return
	}
	r.proc, r.startedAt = m.proc, time.Now()
	_ = r.machine.Fire(fsm.BrowserReady)
	if r.relaunch || len(r.stopWaiters) > 0 {
		// A new launch or a stop was asked for while this one started.
		r.watchExit()
		r.beginStop()
		return
	}
	ep := r.endpoint()
	for _, w := range r.waiters {
		w <- launchResult{ep: ep}
	}
	r.waiters = nil
	r.publish(Ready{Endpoint: ep})
	r.watchExit()
}

// watchExit reports the running process's exit, planned or not.
func (r *browserRun) watchExit() {
	proc, gen := r.proc, r.gen
	go func() { // owned: it ends when the process exits or the run is over
		select {
		case <-proc.Exited():
			select {
			case r.reports <- processExited{gen: gen}:
			case <-r.quit:
			}
		case <-r.quit:
		}
	}()
}

// exited handles an unplanned exit: record it, tell subscribers, clean up.
func (r *browserRun) exited() {
	proc := r.proc
	cause := "exited with code " + itoa(proc.ExitCode())
	switch {
	case proc.Attached:
		cause = "the attached browser stopped answering"
	case proc.ExitCode() < 0:
		cause = "killed: " + errString(proc.ExitErr())
	}
	r.lastExit = &ExitRecord{At: time.Now(), Generation: r.gen, Cause: cause}
	_ = r.machine.Fire(fsm.BrowserExit)
	r.log.Warn().Int("pid", proc.Pid).Str("cause", cause).Msg("browser exited unexpectedly")
	r.publish(Exited{Instance: r.a.spec.Instance, Generation: r.gen, Pid: proc.Pid, Err: proc.ExitErr()})
	// Its leftovers (helpers, temporary profile) are cleaned up meanwhile: a
	// relaunch needs none of that, and a waiting client should not either.
	gen := r.gen
	r.go_(func() any { return cleanupDone{gen: gen, err: proc.Stop()} })
	r.proc = nil
	_ = r.machine.Fire(fsm.BrowserSettle)
	if r.relaunch || len(r.waiters) > 0 {
		r.startLaunch()
	}
}

// beginStop stops the running browser (SIGTERM, the wait, SIGKILL, its
// temporary profile removed) and reports stopDone.
func (r *browserRun) beginStop() {
	_ = r.machine.Fire(fsm.BrowserStop)
	proc, gen := r.proc, r.gen
	r.go_(func() any { return stopDone{gen: gen, err: proc.Stop()} })
}

func (r *browserRun) stopped(m stopDone) {
	proc := r.proc
	r.proc = nil
	if m.err != nil {
		r.log.Error().Err(m.err).Msg("browser cleanup")
	}
	r.lastExit = &ExitRecord{At: time.Now(), Generation: m.gen, Planned: true, Cause: "stopped"}
	_ = r.machine.Fire(fsm.BrowserStopped)
	r.publish(Exited{Instance: r.a.spec.Instance, Generation: m.gen, Pid: proc.Pid, Planned: true})
	r.answerStops(m.err)
	if r.relaunch || len(r.waiters) > 0 {
		r.startLaunch()
	}
}

func (r *browserRun) answerStops(err error) {
	for _, s := range r.stopWaiters {
		s <- err
	}
	r.stopWaiters = nil
}

func (r *browserRun) failWaiters(err error) {
	for _, w := range r.waiters {
		w <- launchResult{err: err}
	}
	r.waiters = nil
}

func (r *browserRun) publish(ev any) {
	if w := r.a.spec.Watchdog; w != nil {
		// Not dropped, unlike a subscriber's copy: a missed Ready is a
		// browser without a watchdog.
		select {
		case w <- ev:
		case <-time.After(5 * time.Second):
			r.log.Error().Msg("the watchdog actor does not listen; browser event lost")
		}
	}
	for ch := range r.subscribers {
		select {
		case ch <- ev:
		default:
			r.log.Warn().Msg("a browser event subscriber is not reading; event dropped")
		}
	}
}

func (r *browserRun) endpoint() Endpoint {
	p := r.proc
	return Endpoint{
		Instance: r.a.spec.Instance, Generation: r.gen, Pid: p.Pid, WSURL: p.WSURL, HostPort: p.HostPort,
		UserDataDir: p.UserDataDir, TempProfile: p.TempProfile, TempDir: p.TempDir(), Headless: r.opts.Headless,
		Browser: p.Browser, Ownership: r.ownership(),
	}
}

func (r *browserRun) status() Status {
	s := Status{
		State: r.machine.State(), Generation: r.gen, Browser: r.opts.Browser, Headless: r.opts.Headless,
		UserDataDir: r.opts.UserDataDir, LastExit: r.lastExit, Options: r.opts,
	}
	if r.proc != nil {
		started := r.startedAt
		s.Pid, s.UserDataDir, s.TempProfile, s.DebugPort, s.StartedAt = r.proc.Pid, r.proc.UserDataDir, r.proc.TempProfile, r.proc.Port, &started
	}
	return s
}

// shutdown stops the browser and waits for every goroutine of the run.
func (r *browserRun) shutdown() {
	if r.cancelLaunch != nil {
		r.cancelLaunch()
	}
	if r.machine.Is(fsm.BrowserRunning) {
		r.relaunch = false
		if r.a.spec.KeepOnShutdown || r.proc.Attached {
			r.proc.Detach()
			r.log.Info().Int("pid", r.proc.Pid).Str("ownership", r.ownership()).Msg("browser left running")
		} else {
			r.beginStop()
		}
	}
	for r.workers > 0 {
		m := <-r.reports
		switch m := m.(type) {
		case launchDone:
			r.workers--
			if m.proc != nil {
				_ = m.proc.Stop()
			}
		case stopDone:
			r.workers--
			if m.err != nil {
				r.log.Error().Err(m.err).Msg("browser cleanup")
			}
			r.publish(Exited{Instance: r.a.spec.Instance, Generation: m.gen, Planned: true})
		case cleanupDone:
			r.workers--
		}
	}
	close(r.quit)
	closed := fmt.Errorf("%w: instance %s was closed while the request was pending", ErrInstanceClosed, r.a.spec.Instance)
	r.failWaiters(closed)
	r.answerStops(closed)
	r.log.Debug().Msg("browser actor stopped")
}

func errString(err error) string {
	if err == nil {
		return "unknown"
	}
	return err.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }

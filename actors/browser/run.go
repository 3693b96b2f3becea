package browser

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/fsm"
)

// browserRun is the state a BrowserActor owns during one Serve call. Only
// the Serve goroutine touches it.
type browserRun struct {
	a       *Actor
	ctx     context.Context
	log     zerolog.Logger
	machine *fsm.Machine
	reports chan report   // from the goroutines below
	quit    chan struct{} // closed when the run is over: ends those goroutines
	workers int           // goroutines whose report is still due

	// The launch policy: opts are the options of the last successful launch
	// (the configured ones before); want, when set, the options launch
	// requests asked for and no launch has settled yet; launching, those of
	// the launch under way.
	opts      launch.Options
	want      *launch.Options
	launching launch.Options
	launchErr string        // why the last launch failed, until one succeeds
	backoff   launchBackoff // failed launches in a row: holds demands back for a while

	gen          int
	proc         *launch.Process
	facts        launch.Facts         // proc's
	identity     proc.BrowserIdentity // proc's, read once at its launch
	startedAt    time.Time
	cancelLaunch context.CancelFunc
	relaunch     bool // launch again once the current launch or stop is over
	crashRetry   bool // the launch under way is the one more try after a crash at start
	suspect      bool // the next stop is for a browser that stopped answering
	waiters      []chan launchResult
	stopWaiters  []chan error
	lastExit     *ExitRecord
	subscribers  map[chan<- Event]subscription
	launches     int // launches that worked

	cancelProbe context.CancelFunc // ends the hang probe of the running browser
	clients     int                // client connections of the endpoint
	lastDemand  time.Time          // for the idle stop
	idle        *time.Timer        // fires when the idle stop is due
	stopCause   string             // the cause the next planned stop records ("" = stopped)
}

func newBrowserRun(a *Actor, ctx context.Context) *browserRun {
	r := &browserRun{
		a:           a,
		ctx:         ctx,
		log:         a.spec.Log,
		reports:     make(chan report),
		quit:        make(chan struct{}),
		opts:        a.spec.Launch,
		subscribers: map[chan<- Event]subscription{},
		lastDemand:  time.Now(),
		idle:        time.NewTimer(time.Hour),
	}
	r.idle.Stop()
	r.machine = fsm.NewBrowserMachine(func(t fsm.Transition) {
		ev := r.log.Info().Str("machine", "browser").Str("event", t.Event).Str("from", t.From).Str("runtimeState", t.To).
			Int("generation", r.gen).Str("ownership", r.ownership())
		if dir := r.profileDir(); dir != "" { // "" until a launch makes the temporary one
			ev = ev.Str("userDataDir", dir)
		}
		if r.proc != nil {
			ev = pidFields(ev, r.facts).Int("resolvedDebugPort", r.facts.Port)
		}
		ev.Msg("browser state")
	})
	return r
}

func (r *browserRun) fire(event string) {
	if err := r.machine.Fire(event); err != nil {
		r.log.Error().Err(err).Str("event", event).Msg("browser machine")
	}
}

func (r *browserRun) ownership() string {
	if r.proc != nil && r.facts.Attached {
		return "attached"
	}
	return "launched"
}

func (r *browserRun) profileDir() string {
	if r.proc != nil {
		return r.facts.UserDataDir
	}
	return r.nextOptions().UserDataDir
}

// nextOptions are those the next launch uses.
func (r *browserRun) nextOptions() launch.Options {
	if r.want != nil {
		return *r.want
	}
	return r.opts
}

func (r *browserRun) handle(m request) {
	if r.a.spec.UsersBrowser {
		if refused := r.refuseForUsersBrowser(m); refused {
			return
		}
	}
	switch m.(type) {
	case ensureRunning, launchBrowser, restartBrowser, replaceBrowser, touch:
		r.lastDemand = time.Now()
		defer r.armIdle()
	}
	switch m := m.(type) {
	case clientsChanged:
		r.clients = m.n
		r.lastDemand = time.Now() // the idle time counts from the last client's end
		r.armIdle()
	case ensureRunning:
		r.ensure(m.reply)
	case replaceBrowser:
		if r.machine.Is(fsm.BrowserRunning) && r.gen == m.gen {
			r.suspect = true // its connections failed: it may be dying
			r.relaunchWith(nil, m.reply)
		} else {
			r.ensure(m.reply)
		}
	case launchBrowser:
		base := r.nextOptions()
		if r.want == nil && r.machine.Is(fsm.BrowserLaunching) {
			base = r.launching // made together with the launch under way
		}
		opts, err := m.change.Apply(base, OwnLauncher{r.a.spec.Launcher})
		if err != nil {
			m.reply <- launchResult{err: err}
			return
		}
		r.relaunchWith(&opts, m.reply)
	case restartBrowser:
		if age := time.Since(r.startedAt); !m.force && r.machine.Is(fsm.BrowserRunning) && age < RestartGuard {
			m.reply <- launchResult{err: restartRefused(r.gen, PidText(r.facts.Pid, r.facts.WindowsPid), age)}
			return
		}
		r.relaunchWith(nil, m.reply)
	case stopBrowser:
		r.stop(m.reply)
	case browserStatus:
		m.reply <- r.status()
	case subscribe:
		r.subscribers[m.sub.ch] = m.sub
		if r.machine.Is(fsm.BrowserRunning) {
			deliver(m.sub, Ready{Endpoint: r.endpoint()}, r.log) // a late subscriber learns what runs
		}
		ch, quit, mailbox := m.sub.ch, r.quit, r.a.mailbox
		m.reply <- func() {
			select {
			case mailbox <- unsubscribe{ch: ch}:
			case <-quit:
			}
		}
	case unsubscribe:
		delete(r.subscribers, m.ch)
	case touch: // demand and nothing more: counted above
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

func (r *browserRun) ensure(reply chan launchResult) {
	if r.machine.Is(fsm.BrowserRunning) {
		reply <- launchResult{ep: r.endpoint()}
		return
	}
	if r.machine.Is(fsm.BrowserIdle) && r.backoff.holds(r.nextOptions(), time.Now()) {
		err := r.backoff.error()
		r.log.Debug().Dur("retryIn", err.RetryIn()).Int("failures", err.Failures).Msg("a demand within the launch backoff: answered with the last launch error")
		reply <- launchResult{err: err}
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

// relaunchWith launches anew, with opts when given: a running browser is
// stopped first, a launch under way is called off for this one.
func (r *browserRun) relaunchWith(opts *launch.Options, reply chan launchResult) {
	if opts != nil {
		r.want = opts
	}
	r.waiters = append(r.waiters, reply)
	r.relaunch = true
	switch r.machine.State() {
	case fsm.BrowserIdle:
		r.startLaunch()
	case fsm.BrowserRunning:
		r.beginStop()
	case fsm.BrowserLaunching:
		r.cancelLaunch() // its failure report starts the new launch
	}
}

func (r *browserRun) stop(reply chan error) {
	r.relaunch = false
	switch r.machine.State() {
	case fsm.BrowserIdle:
		reply <- nil
	case fsm.BrowserRunning:
		r.stopWaiters = append(r.stopWaiters, reply)
		r.beginStop()
	case fsm.BrowserLaunching:
		r.stopWaiters = append(r.stopWaiters, reply)
		r.cancelLaunch()
	default: // stopping
		r.stopWaiters = append(r.stopWaiters, reply)
	}
}

// go_ runs work in a goroutine owned by this run; its report comes back
// through r.reports, or is dropped (after cleanup) if the run is over.
func (r *browserRun) go_(work func() report) {
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

func (r *browserRun) publish(ev Event) { publish(r.subscribers, ev, r.log) }

func (r *browserRun) endpoint() Endpoint {
	f := r.facts
	return Endpoint{
		Instance: r.a.spec.Instance, Generation: r.gen, Pid: f.Pid, WindowsPid: f.WindowsPid, WSURL: f.WSURL, HostPort: f.HostPort,
		UserDataDir: f.UserDataDir, TempProfile: f.TempProfile, TempDir: f.TempDir, Headless: r.opts.Headless,
		Browser: f.Browser, Ownership: r.ownership(), Identity: r.identity, Reach: f.Reach,
	}
}

func (r *browserRun) status() Status {
	next := r.nextOptions()
	s := Status{
		State: r.machine.State(), Generation: r.gen, Browser: next.Browser, Headless: next.Headless,
		UserDataDir: next.UserDataDir, LastExit: r.lastExit, LastLaunchError: r.launchErr,
	}
	if r.proc != nil {
		started := r.startedAt
		s.Browser, s.Headless = r.facts.Browser, r.opts.Headless // the version of what runs
		s.Pid, s.UserDataDir, s.TempProfile, s.DebugPort, s.StartedAt = r.facts.Pid, r.facts.UserDataDir, r.facts.TempProfile, r.facts.Port, &started
		s.WindowsPid = r.facts.WindowsPid
	}
	if r.machine.Is(fsm.BrowserIdle) && r.backoff.holds(next, time.Now()) {
		at := r.backoff.next
		s.NextLaunchAt = &at
	}
	s.Restarts = max(r.launches-1, 0)
	return s
}

// refuseForUsersBrowser answers a stop, a restart or a switch of the user's
// own browser with ErrUsersBrowser (a launch that changes nothing attaches).
func (r *browserRun) refuseForUsersBrowser(m request) bool {
	switch m := m.(type) {
	case launchBrowser:
		if m.change.Browser == nil && m.change.Headless == nil && m.change.UserDataDir == nil && len(m.change.Args) == 0 {
			r.ensure(m.reply) // nothing to change: attach if not attached
			return true
		}
		m.reply <- launchResult{err: usersBrowserRefused()}
	case restartBrowser:
		m.reply <- launchResult{err: usersBrowserRefused()}
	case stopBrowser:
		m.reply <- usersBrowserRefused()
	default:
		return false
	}
	return true
}

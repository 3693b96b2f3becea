// Package actors is the supervision tree: the coordinator, its instances
// (a BrowserActor and a ProxyActor each, under their own sub-supervisor),
// the instance registry, and the operations the CLI and MCP tools ask for.
package actors

import (
	"context"
	"errors"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/proc"
	"github.com/cdpvisor/cdpvisor/actors/leases"
	"github.com/cdpvisor/cdpvisor/actors/liveview"
	"github.com/cdpvisor/cdpvisor/actors/metrics"
	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// CoordinatorConfig is what `serve` and `mcp` configure.
type CoordinatorConfig struct {
	Port   int            // the default instance's endpoint port (0 = any free port)
	Launch launch.Options // how the default instance launches its browser
	// UsersBrowser, when set, is the launcher of the user's own browser
	// (launchers.UsersBrowser), which the default instance attaches to
	// instead of launching one, and never stops (serve --attach).
	UsersBrowser launch.Launcher
	// Sys is the host the browsers run on, resolved once by the caller; its
	// PreferWindows (--windows) makes the browsers that instances made later
	// name by type (or leave to the default) Windows ones inside WSL.
	Sys      launch.System
	StateDir string
	// ProfilesDir keeps the named worlds' storage; "": profiles in
	// StateDir when it was given, else profiles.DefaultDir (the default
	// state dir is gone after a reboot).
	ProfilesDir   string
	AllowOrigins  []string
	InstancePorts PortRange // ports for extra instances; zero: any free port
	MaxInstances  int       // 0 = 99
	// WatchdogExe is the cdpvisor executable that guards each launched
	// browser against this process being killed; "" runs no watchdogs.
	WatchdogExe string
	// HangTimeout and IdleStop are every browser's (see browser.Spec).
	HangTimeout time.Duration
	IdleStop    time.Duration
	// DownloadDir is where downloads land, each instance's in a folder of
	// its own named by its id; "" is downloads.DefaultRoot().
	DownloadDir string
	Version     string
	// Listen is the host the default endpoint binds ("" = 127.0.0.1);
	// beyond loopback it needs Token, asked of every request but the
	// probes. AllowHosts are the Host names it answers under besides
	// loopback ones.
	Listen     string
	Token      string
	AllowHosts []string
	// Words says the fixes of errors the endpoints answer (the command
	// line's for the flags this coordinator was started with); nil: plain.
	Words remedy.Words
	// NoJournal turns the worlds' journal off (serve --journal=false):
	// nothing is recorded of what their clients do.
	NoJournal bool
	// DebugPprof serves the Go runtime's profiles on the endpoint
	// (serve --debug-pprof), to whoever may read /metrics.
	DebugPprof bool
	Log        zerolog.Logger
}

// Coordinator is the supervision tree: the state and registry actors and
// one sub-supervisor per instance. The default instance exists from the
// start; its endpoint is bound before anything runs.
type Coordinator struct {
	cfg      CoordinatorConfig
	root     *suture.Supervisor
	registry *Registry
	state    *state.Actor
	def      *Instance
	hook     suture.EventHook
	guard    *watchdog.Actor // nil without watchdogs
	metrics  *metrics.Actor
	profiles *profiles.Actor // nil: no world is kept
	liveView *liveview.Actor
	journal  *journal.Actor // nil: off
	draining atomic.Bool    // set once by Drain; read by every readiness probe
}

// NewCoordinator binds the default endpoint and writes the state files, so
// a port in use or an unwritable state dir fails before anything starts.
func NewCoordinator(cfg CoordinatorConfig) (*Coordinator, error) {
	profilesDir, err := profiles.Choose(cfg.ProfilesDir, cfg.StateDir, cfg.Log)
	if err != nil {
		return nil, err
	}
	if cfg.StateDir == "" {
		cfg.StateDir = state.DefaultDir()
	}
	if cfg.MaxInstances <= 0 {
		cfg.MaxInstances = 99
	}
	if cfg.DownloadDir == "" {
		root, err := downloads.DefaultRoot()
		if err != nil {
			return nil, err
		}
		cfg.DownloadDir = root
	}
	if err := state.PrepareDir(cfg.StateDir); err != nil {
		return nil, err
	}
	// What coordinators killed before us (watchdogs included) left behind.
	watchdog.Reap(cfg.Sys, cfg.StateDir, launch.TempRoot(), cfg.Log)
	l, err := listenDefault(cfg)
	if err != nil {
		return nil, err
	}
	c := &Coordinator{cfg: cfg, hook: actor.SupervisorHook(cfg.Log), metrics: metrics.New(cfg.Log)}
	if !cfg.NoJournal {
		c.journal = journal.New(journal.Spec{Dir: journal.DirIn(cfg.StateDir), Passing: worlds.IsFresh, Log: cfg.Log})
	}
	c.liveView = liveview.New(liveview.Spec{OnHold: c.journal.HoldHook(), Log: cfg.Log.With().Str("actor", "liveview").Logger()})
	if profilesDir != "" {
		c.profiles = profiles.New(profiles.Spec{Dir: profilesDir, Log: cfg.Log})
	}
	if cfg.WatchdogExe != "" {
		c.guard = watchdog.New(watchdog.Spec{Exe: cfg.WatchdogExe, StateFile: state.FileName(cfg.StateDir, os.Getpid()), Log: cfg.Log})
	}
	if c.def, err = c.buildInstance(cfg.Launch, l, "", cfg.UsersBrowser); err != nil {
		l.Close()
		return nil, err
	}
	c.state = state.New(state.Spec{Dir: cfg.StateDir, Log: cfg.Log, State: state.File{
		Port: c.def.Proxy.Port(), PID: os.Getpid(), PPID: os.Getppid(), StartedAt: time.Now().UTC(),
		Version: cfg.Version, Endpoint: c.def.Proxy.Endpoint(), WS: c.def.Proxy.BrowserWS(), Protocol: string(c.def.Protocol),
		Instances: []state.Instance{c.def.stateRecord()},
	}})
	if err := c.state.Write(); err != nil {
		l.Close()
		return nil, err
	}
	c.root = suture.New("cdpvisor", suture.Spec{EventHook: c.hook, Timeout: 25 * time.Second})
	c.registry = NewRegistry(cfg.Log, c.def)
	c.root.Add(c.state)
	c.root.Add(c.registry)
	// The worlds `wrap --isolate` made for its child close once that wrap
	// has ended: the wrap runs in another process, and leaves its lease in
	// this coordinator's state dir.
	c.root.Add(leases.New(leases.Spec{
		StateDir: cfg.StateDir, PID: os.Getpid(), Close: c.closeWorld, Alive: proc.PidAlive, Log: cfg.Log,
		Gone: func(err error) bool {
			return errors.Is(err, worlds.ErrUnknownWorld) || errors.Is(err, ErrUnknownInstance)
		},
	}))
	c.root.Add(c.metrics)
	if c.profiles != nil {
		c.root.Add(c.profiles)
	}
	c.root.Add(c.liveView) // before the instances: their endpoints serve it, their relays ask it
	if c.journal != nil {
		c.root.Add(c.journal) // before the instances: their relays write to it
	}
	if c.guard != nil {
		c.root.Add(c.guard)
	}
	c.def.token = c.root.Add(c.def.Supervisor)
	return c, nil
}

// listenDefault binds the default endpoint: the port asked for; without
// one, the port of a killed coordinator when it is free (its host started
// this one again: wrapped children keep the old URL), else any free port.
func listenDefault(cfg CoordinatorConfig) (net.Listener, error) {
	if cfg.Port == 0 && cfg.Listen == "" {
		if l, dead, ok := state.TakeOverPort(cfg.StateDir, os.Getppid(), proxy.Listen); ok {
			cfg.Log.Info().Int("port", dead.Port).Int("deadPid", dead.PID).
				Msgf("took over the port %d of the dead coordinator pid %d: its clients' URL works again", dead.Port, dead.PID)
			return l, nil
		}
	}
	if cfg.Listen != "" {
		return proxy.ListenOn(cfg.Listen, cfg.Port)
	}
	return proxy.Listen(cfg.Port)
}

// worldsJournal is the journal as the worlds see it; nil when it is off.
func (c *Coordinator) worldsJournal() worlds.Journal {
	if c.journal == nil {
		return nil // not a nil *journal.Actor in the interface
	}
	return c.journal
}

// keptWorlds is the profiles as the WorldsActors see them; nil keeps
// nothing.
func (c *Coordinator) keptWorlds() worlds.Profiles {
	if c.profiles == nil {
		return nil
	}
	return c.profiles
}

// keepWait bounds the last save of the worlds when cdpvisor stops: a
// browser that does not answer must not hold the stop.
const keepWait = 3 * time.Second

// keepWorlds reads every instance's kept worlds a last time and writes
// them, before the browsers stop (SIGTERM, stdin's end, Ctrl-C).
func (c *Coordinator) keepWorlds() {
	if c.profiles == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), keepWait)
	defer cancel()
	for _, inst := range c.registry.All(ctx) {
		if inst.Worlds == nil {
			continue
		}
		if err := inst.Worlds.Keep(ctx); err != nil {
			c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("the worlds were not read a last time before the stop; what they last saved is kept")
		}
	}
	if err := c.profiles.Flush(ctx); err != nil {
		c.cfg.Log.Warn().Err(err).Msg("the worlds' last storage was not written")
	}
}

// LiveView is the live view's URL on the default endpoint (beyond
// loopback, add ?token=TOKEN).
func (c *Coordinator) LiveView() string { return c.def.Proxy.Endpoint() + liveview.Path }

// LiveViewActor is the coordinator's live view (tests, the benchmark).
func (c *Coordinator) LiveViewActor() *liveview.Actor { return c.liveView }

// Default is the default instance.
func (c *Coordinator) Default() *Instance { return c.def }

// StatePath is this coordinator's state file.
func (c *Coordinator) StatePath() string { return c.state.Path() }

// Run serves the tree until ctx is done and everything in it has stopped:
// browsers ended, listeners closed, state files removed.
func (c *Coordinator) Run(ctx context.Context) error {
	tree, stop := context.WithCancel(context.Background())
	defer stop()
	served := c.root.ServeBackground(tree)
	c.watch(ctx, c.def)
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		c.keepWorlds() // while their browsers run still
		stop()
		err = <-served
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// mounts are the features' HTTP surfaces on every endpoint: the live
// view, the metrics, and the Go runtime's profiles when serve
// --debug-pprof asked for them.
func (c *Coordinator) mounts() []proxy.Mount {
	m := []proxy.Mount{c.liveView.Mount(), c.metrics.Mount()}
	if c.cfg.DebugPprof {
		m = append(m, metrics.PprofMount())
	}
	return m
}

// watch has the metrics count an instance's browsers, and the live view
// show it.
func (c *Coordinator) watch(ctx context.Context, inst *Instance) {
	li := liveview.Instance{ID: inst.ID, Default: inst == c.def, Endpoint: inst.Proxy.Endpoint(), Browser: inst.Browser, Downloads: inst.Downloads,
		Worlds: inst.Worlds, Command: leases.CommandOf(c.cfg.StateDir, inst.ID, inst == c.def)}
	if err := c.liveView.Watch(ctx, li); err != nil && ctx.Err() == nil {
		c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("the live view does not show this instance")
	}
	if inst == c.def {
		c.cfg.Log.Info().Str("live_view", c.LiveView()).Msg("live view: open it in a browser to watch and take over the agents' pages")
	}
	if err := c.metrics.Watch(ctx, inst.Browser); err != nil && ctx.Err() == nil {
		c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("its browsers are not counted in the metrics")
	}
}

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
	"github.com/cdpvisor/cdpvisor/actors/pacing"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/profiles"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/recorder"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// CoordinatorConfig is what `serve` and `mcp` configure, grouped by what
// it configures.
type CoordinatorConfig struct {
	// The endpoints. Port is the default instance's (0 = any free port);
	// Listen the host it binds ("" = 127.0.0.1): beyond loopback it needs
	// Token, asked of every request but the probes; AllowHosts are the Host
	// names it answers under besides loopback ones; AllowOrigins the
	// websocket Origins allowed besides the endpoint's own.
	Port          int
	Listen        string
	Token         string
	AllowHosts    []string
	AllowOrigins  []string
	InstancePorts PortRange // ports for extra instances; zero: any free port
	MaxInstances  int       // 0 = 99
	MaxWorlds     int       // each instance's most worlds open at once, a new one past it refused (worlds.ErrFull); 0 = no limit

	// The browsers. Launch is how the default instance launches its
	// browser; UsersBrowser, when set, the launcher of the user's own
	// browser (launchers.UsersBrowser), which the default instance attaches
	// to instead, and never stops (serve --attach). Sys is the host the
	// browsers run on, resolved once by the caller; its PreferWindows
	// (--windows) makes the browsers that instances made later name by type
	// (or leave to the default) Windows ones inside WSL. HangTimeout and
	// IdleStop are every browser's (see browser.Spec). WatchdogExe is the
	// cdpvisor executable that guards each launched browser against this
	// process being killed; "" runs no watchdogs.
	Launch       launch.Options
	UsersBrowser launch.Launcher
	Sys          launch.System
	HangTimeout  time.Duration
	IdleStop     time.Duration
	WatchdogExe  string

	// Where things are kept. ProfilesDir keeps the named worlds' storage
	// ("": profiles in StateDir when it was given, else
	// profiles.DefaultDir, since the default state dir is gone after a
	// reboot);
	// DownloadDir is where downloads land, each instance's in a folder of
	// its own named by its id ("": downloads.DefaultRoot()).
	StateDir    string
	ProfilesDir string
	DownloadDir string

	// The features. NoJournal turns the worlds' journal off (serve
	// --journal=false): nothing is recorded of what their clients do.
	// DebugPprof serves the Go runtime's profiles on the endpoint (serve
	// --debug-pprof), to whoever may read /metrics.
	NoJournal  bool
	DebugPprof bool
	// The recordings (actors/recorder). Record records every world (serve
	// --record); a world's own switch (world open NAME --record) records
	// it whatever this says. RecordCap bounds each world's recording
	// (--record-cap; 0: 200 MB), RecordTotalCap all of them together (0:
	// 2 GB), the oldest part dropped first; KeepRecordings keeps a fresh
	// agent-… world's recording once it closed (--keep-recordings).
	Record         bool
	RecordCap      int64
	RecordTotalCap int64
	KeepRecordings bool
	// MaxLoads is how many page loads of the worlds' clients each browser
	// runs at once, the next waiting their turn (actors/pacing; 0: as many
	// as the machine has processors; negative: no pacing).
	MaxLoads int

	// The edge. Words says the fixes of errors the endpoints answer (the
	// command line's for the flags this coordinator was started with); nil:
	// plain.
	Version string
	Words   remedy.Words
	Log     zerolog.Logger
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
	recorder *recorder.Actor
	features []plug.Feature // what it was built with (plugged), set before anything serves
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
	c.recorder = recorder.New(recorder.Spec{Dir: recorder.DirIn(cfg.StateDir), All: cfg.Record, WorldCap: cfg.RecordCap, TotalCap: cfg.RecordTotalCap,
		Passing: worlds.IsFresh, Keep: cfg.KeepRecordings, Log: cfg.Log.With().Str("actor", "recorder").Logger()})
	c.liveView = liveview.New(liveview.Spec{OnHold: plug.Holds(c.journal.HoldHook(), c.recorder.HoldHook()), OnHuman: c.recorder.HumanHook(), Log: cfg.Log.With().Str("actor", "liveview").Logger()})
	if profilesDir != "" {
		c.profiles = profiles.New(profiles.Spec{Dir: profilesDir, Log: cfg.Log})
	}
	if cfg.WatchdogExe != "" {
		c.guard = watchdog.New(watchdog.Spec{Exe: cfg.WatchdogExe, StateFile: state.FileName(cfg.StateDir, os.Getpid()), Log: cfg.Log})
	}
	c.features = c.plugged()
	if err := c.measured(); err != nil {
		l.Close()
		return nil, err
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
	for _, f := range c.features {
		for _, svc := range f.Services() {
			c.root.Add(svc) // before the instances: their endpoints serve the features, their relays write to them
		}
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

// plugged are the features this coordinator runs (actors/plug), in the
// order their stages run in a world client's relay: the journal's tap sees
// each request as the client sent it, before a human's hold.
func (c *Coordinator) plugged() []plug.Feature {
	// The worlds `wrap --isolate` made for its child close once that wrap
	// has ended: the wrap runs in another process, and leaves its lease in
	// this coordinator's state dir.
	leased := leases.New(leases.Spec{
		StateDir: c.cfg.StateDir, PID: os.Getpid(), Close: c.closeWorld, Alive: proc.PidAlive, Log: c.cfg.Log,
		Gone: func(err error) bool {
			return errors.Is(err, worlds.ErrUnknownWorld) || errors.Is(err, ErrUnknownInstance)
		},
	})
	fs := []plug.Feature{plug.Actors{leased}, c.metrics}
	if c.profiles != nil {
		fs = append(fs, plug.Actors{c.profiles})
	}
	if c.journal != nil {
		fs = append(fs, c.journal)
	}
	// After the live view: a load a human's hold keeps waits for the hand-back
	// before it waits for its turn.
	fs = append(fs, c.recorder, c.liveView, pacing.New(pacing.Spec{MaxLoads: c.cfg.MaxLoads,
		Log: c.cfg.Log.With().Str("actor", "pacing").Logger()}))
	if c.guard != nil {
		fs = append(fs, plug.Actors{c.guard})
	}
	if c.cfg.DebugPprof {
		fs = append(fs, metrics.Pprof{})
	}
	return fs
}

// mounts are the features' HTTP surfaces on every endpoint.
func (c *Coordinator) mounts() []proxy.Mount {
	var m []proxy.Mount
	for _, f := range c.features {
		if mf, ok := f.(plug.Mounter); ok {
			m = append(m, mf.Mounts()...)
		}
	}
	return m
}

// measured gives the metrics the features' own.
func (c *Coordinator) measured() error {
	for _, f := range c.features {
		if m, ok := f.(plug.MetricsSource); ok {
			if err := c.metrics.Register(m.Collectors()...); err != nil {
				return err
			}
		}
	}
	return nil
}

// relayStages make, in their order, the features' stages of each world
// client's relay of an instance.
func (c *Coordinator) relayStages(inst plug.Instance) []plug.StageOf {
	var stages []plug.StageOf
	for _, f := range c.features {
		if sf, ok := f.(plug.Stager); ok {
			stages = append(stages, sf.Stages(inst)...)
		}
	}
	return stages
}

// worldHooks are, in their order, the features' parts in the world
// requests of an instance.
func (c *Coordinator) worldHooks(inst plug.Instance) []worldapi.Hooks {
	var hooks []worldapi.Hooks
	for _, f := range c.features {
		if h, ok := f.(plug.WorldHooker); ok {
			hooks = append(hooks, h.WorldHooks(inst))
		}
	}
	return hooks
}

// watch tells the features of an instance that serves (the live view
// shows it, the metrics count its browsers).
func (c *Coordinator) watch(ctx context.Context, inst *Instance) {
	for _, f := range c.features {
		if w, ok := f.(plug.InstanceWatcher); ok {
			if err := w.InstanceMade(ctx, inst.seen); err != nil && ctx.Err() == nil {
				c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("a feature does not follow this instance")
			}
		}
	}
}

// clientsOf tells the features how many client connections an instance's
// endpoint serves.
func (c *Coordinator) clientsOf(instance string, n int) {
	for _, f := range c.features {
		if cc, ok := f.(plug.ClientCounter); ok {
			cc.SetClients(instance, n)
		}
	}
}

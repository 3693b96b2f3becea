// Package actors is the supervision tree: the coordinator, its instances
// (a BrowserActor and a ProxyActor each, under their own sub-supervisor),
// the instance registry, and the operations the CLI and MCP tools ask for.
package actors

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/rs/zerolog"
	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/chrome"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/watchdog"
)

// CoordinatorConfig is what `serve` and `mcp` configure.
type CoordinatorConfig struct {
	Port          int                  // the default instance's endpoint port (0 = any free port)
	Launch        chrome.LaunchOptions // how the default instance launches its browser
	StateDir      string
	AllowOrigins  []string
	InstancePorts PortRange // ports for extra instances; zero: any free port
	MaxInstances  int       // 0 = 99
	// WatchdogExe is the cdpvisor executable that guards each launched
	// browser against this process being killed; "" runs no watchdogs.
	WatchdogExe string
	Version     string
	Log         zerolog.Logger
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
}

// NewCoordinator binds the default endpoint and writes the state files, so
// a port in use or an unwritable state dir fails before anything starts.
func NewCoordinator(cfg CoordinatorConfig) (*Coordinator, error) {
	if cfg.StateDir == "" {
		cfg.StateDir = state.DefaultDir()
	}
	if cfg.MaxInstances <= 0 {
		cfg.MaxInstances = 99
	}
	// What coordinators killed before us (watchdogs included) left behind.
	watchdog.Reap(cfg.StateDir, os.TempDir(), cfg.Log)
	l, err := proxy.Listen(cfg.Port)
	if err != nil {
		return nil, err
	}
	hook := actor.SupervisorHook(cfg.Log)
	var guard *watchdog.Actor
	if cfg.WatchdogExe != "" {
		guard = watchdog.New(watchdog.Spec{Exe: cfg.WatchdogExe, StateFile: state.FileName(cfg.StateDir, os.Getpid()), Log: cfg.Log})
	}
	id := NewInstanceID(time.Now())
	log := cfg.Log.With().Str("instance", id).Logger()
	def := newInstance(id,
		browser.Spec{Instance: id, Launch: cfg.Launch, Log: log},
		proxy.Spec{Instance: id, AllowOrigins: cfg.AllowOrigins, Log: log},
		l, hook)
	published := state.New(state.Spec{Dir: cfg.StateDir, Log: cfg.Log, State: state.File{
		Port: def.Proxy.Port(), PID: os.Getpid(), PPID: os.Getppid(), StartedAt: time.Now().UTC(),
		Version: cfg.Version, Endpoint: def.Proxy.Endpoint(), WS: def.Proxy.BrowserWS(),
		Instances: []state.Instance{def.stateRecord()},
	}})
	if err := published.Write(); err != nil {
		l.Close()
		return nil, err
	}
	root := suture.New("cdpvisor", suture.Spec{EventHook: hook, Timeout: 25 * time.Second})
	c := &Coordinator{cfg: cfg, root: root, registry: NewRegistry(def), state: published, def: def, hook: hook, guard: guard}
	root.Add(c.state)
	root.Add(c.registry)
	if guard != nil {
		root.Add(guard)
	}
	def.token = root.Add(def.Supervisor)
	return c, nil
}

// Default is the default instance.
func (c *Coordinator) Default() *Instance { return c.def }

// Registry is the instance registry.
func (c *Coordinator) Registry() *Registry { return c.registry }

// StatePath is this coordinator's state file.
func (c *Coordinator) StatePath() string { return c.state.Path() }

// Run serves the tree until ctx is done and everything in it has stopped:
// browsers ended, listeners closed, state files removed.
func (c *Coordinator) Run(ctx context.Context) error {
	served := c.root.ServeBackground(ctx)
	c.watch(ctx, c.def)
	err := <-served
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// watch has the watchdog guard an instance's browsers.
func (c *Coordinator) watch(ctx context.Context, inst *Instance) {
	if c.guard == nil {
		return
	}
	if err := c.guard.Watch(ctx, inst.Browser); err != nil && ctx.Err() == nil {
		c.cfg.Log.Error().Err(err).Str("instance", inst.ID).Msg("its browsers may outlive a killed coordinator")
	}
}

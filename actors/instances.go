package actors

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/thejerf/suture/v4"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/extensions"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/launch/launchers"
	"github.com/cdpvisor/cdpvisor/actors/leases"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
)

// InstanceRequest asks for a new instance.
type InstanceRequest struct {
	// Change is made to the coordinator's launch options (--browser,
	// --headless, …); the profile is always a fresh temporary one:
	// instances never share a profile.
	Change browser.Change
	Port   int // 0: from --instance-ports, else any free port
	// DownloadDir is where its downloads land (`~` and relative paths
	// resolved as for a profile); "": its own folder under the
	// coordinator's download dir.
	DownloadDir string
}

// ErrDefaultInstance refuses to close the default instance.
var ErrDefaultInstance = errors.New("the default instance cannot be closed")

// ErrUnknownInstance is a lookup that found nothing.
var ErrUnknownInstance = errors.New("unknown instance")

// NewInstance starts another browser behind its own stable endpoint. Port
// choice and the limit are decided by the registry, one request at a time.
func (c *Coordinator) NewInstance(ctx context.Context, req InstanceRequest) (*Instance, error) {
	req.Change.UserDataDir = nil
	// A new instance may be of either family; its launcher follows.
	launch, err := req.Change.Apply(c.cfg.Launch, launchers.Any{Sys: c.cfg.Sys})
	if err != nil {
		return nil, err
	}
	launch.UserDataDir = ""
	if launch.Browser.Protocol() != c.cfg.Launch.Browser.Protocol() {
		// --browser-arg values are flags of the coordinator's own browser
		// family (Chromium's mean nothing to Firefox, and the reverse).
		launch.ExtraArgs = nil
	}
	downloadDir := ""
	if req.DownloadDir != "" {
		if downloadDir, err = downloads.Resolve(req.DownloadDir); err != nil {
			return nil, err
		}
	}
	inst, err := c.registry.Create(ctx, func(existing []*Instance) (*Instance, error) {
		if len(existing) >= c.cfg.MaxInstances {
			return nil, remedy.With(fmt.Errorf("already %d instances are open, the maximum this coordinator allows", len(existing)),
				remedy.Fix{Do: remedy.CloseInstance}, remedy.Fix{Do: remedy.AtStart, Setting: remedy.MaxInstances})
		}
		l, err := c.listenFor(req.Port, existing)
		if err != nil {
			return nil, err
		}
		inst, err := c.buildInstance(launch, l, downloadDir, nil)
		if err != nil {
			l.Close()
		}
		return inst, err
	})
	if err != nil {
		return nil, err
	}
	inst.token = c.root.Add(inst.Supervisor)
	c.watch(ctx, inst)
	c.publishInstances(ctx)
	c.cfg.Log.Info().Str("instance", inst.ID).Str("endpoint", inst.Proxy.Endpoint()).Msg("instance created")
	return inst, nil
}

// listenFor binds an instance's endpoint: the port asked for, else the
// first free one of --instance-ports, else any free port.
func (c *Coordinator) listenFor(port int, existing []*Instance) (net.Listener, error) {
	if port != 0 || c.cfg.InstancePorts.IsZero() {
		return proxy.Listen(port)
	}
	used := map[int]bool{}
	for _, inst := range existing {
		used[inst.Proxy.Port()] = true
	}
	for p := c.cfg.InstancePorts.Lo; p <= c.cfg.InstancePorts.Hi; p++ {
		if used[p] {
			continue
		}
		if l, err := proxy.Listen(p); err == nil {
			return l, nil
		}
	}
	return nil, remedy.With(fmt.Errorf("no free port left in the coordinator's instance port range %d-%d", c.cfg.InstancePorts.Lo, c.cfg.InstancePorts.Hi),
		remedy.Fix{Do: remedy.ChooseAnother, Setting: remedy.Port, Text: "outside that range"},
		remedy.Fix{Do: remedy.CloseInstance}, remedy.Fix{Do: remedy.AtStart, Setting: remedy.InstancePorts})
}

// CloseInstance stops an instance's browser, endpoint and state; whatever
// was pending for it fails with INSTANCE_CLOSED.
func (c *Coordinator) CloseInstance(ctx context.Context, ref string) (*Instance, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return nil, err
	}
	if inst == c.def {
		// Its endpoint is the coordinator's, in the state files and in every
		// wrapped child's arguments: it stays for the coordinator's life.
		return nil, fmt.Errorf("%w: %s is the default instance; its endpoint %s is the coordinator's stable endpoint and stays "+
			"open while the coordinator runs. To end its browser, call coordinator_stop_browser (the next request launches "+
			"a new one); browser_instance close is for instances made with browser_instance new",
			ErrDefaultInstance, inst.ID, inst.Proxy.Endpoint())
	}
	if _, err := c.registry.Remove(ctx, inst.ID); err != nil {
		return nil, err
	}
	_, _ = inst.Proxy.CloseClients(ctx, 1001, "instance "+inst.ID+" was closed")
	if err := c.root.RemoveAndWait(inst.token, 30*time.Second); err != nil {
		c.cfg.Log.Warn().Err(err).Str("instance", inst.ID).Msg("instance did not stop in time")
	}
	for _, f := range c.features {
		if w, ok := f.(plug.InstanceWatcher); ok {
			w.InstanceClosed(ctx, inst.ID)
		}
	}
	c.publishInstances(ctx)
	c.cfg.Log.Info().Str("instance", inst.ID).Msg("instance closed")
	return inst, nil
}

// Instance finds an instance by id or by its endpoint's port; "" is the
// default instance (the oldest one left).
func (c *Coordinator) Instance(ctx context.Context, ref string) (*Instance, error) {
	ref = strings.TrimSpace(ref)
	var inst *Instance
	var ok bool
	switch port, err := strconv.Atoi(ref); {
	case ref == "":
		inst, ok = c.registry.First(ctx)
	case err == nil:
		inst, ok = c.registry.ByPort(ctx, port)
	default:
		inst, ok = c.registry.ByID(ctx, ref)
	}
	if ok {
		return inst, nil
	}
	var known []string
	for _, i := range c.registry.All(ctx) {
		known = append(known, fmt.Sprintf("%s (port %d)", i.ID, i.Proxy.Port()))
	}
	if ref == "" {
		return nil, fmt.Errorf("%w: no instance is open; create one with browser_instance new", ErrUnknownInstance)
	}
	return nil, fmt.Errorf("%w %q; open instances: %s", ErrUnknownInstance, ref, strings.Join(known, ", "))
}

// publishInstances rewrites the state files with the current instances.
func (c *Coordinator) publishInstances(ctx context.Context) {
	all := c.registry.All(ctx)
	sort.SliceStable(all, func(i, j int) bool { return all[i] == c.def && all[j] != c.def })
	records := make([]state.Instance, 0, len(all))
	for _, inst := range all {
		records = append(records, inst.stateRecord())
	}
	if err := c.state.SetInstances(ctx, records); err != nil {
		c.cfg.Log.Warn().Err(err).Msg("state files not updated")
	}
}

// WorldsOf is the worlds' surface of an instance ("" for the default
// one), where its worlds are made, listed, guarded, seeded and closed
// (control.Control): refused for a Firefox instance, which has none.
func (c *Coordinator) WorldsOf(ctx context.Context, ref string) (*control.Control, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return nil, err
	}
	if inst.Worlds == nil {
		return nil, fmt.Errorf("instance %s runs %s over WebDriver BiDi: worlds are browser contexts of a Chromium-family browser over CDP", inst.ID, inst.Protocol)
	}
	return inst.Control, nil
}

// closeWorld closes a world of an instance ("" for the default one).
func (c *Coordinator) closeWorld(ctx context.Context, ref, name string) error {
	w, err := c.WorldsOf(ctx, ref)
	if err != nil {
		return err
	}
	return w.CloseWorld(ctx, name)
}

// PortRange is an inclusive range of ports for extra instances
// (--instance-ports 3301-3399, the seed's pool).
type PortRange struct{ Lo, Hi int }

// ParsePortRange reads "LO-HI".
func ParsePortRange(s string) (PortRange, error) {
	lo, hi, ok := strings.Cut(s, "-")
	a, errA := strconv.Atoi(strings.TrimSpace(lo))
	b, errB := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || errA != nil || errB != nil || a < 1 || b > 65535 || a > b {
		return PortRange{}, fmt.Errorf("port range %q: want LO-HI within 1-65535, e.g. 3301-3399", s)
	}
	return PortRange{Lo: a, Hi: b}, nil
}

// IsZero reports an unset range (any free port).
func (r PortRange) IsZero() bool { return r.Lo == 0 && r.Hi == 0 }

// buildInstance makes an instance serving on l, wired to the coordinator:
// its health report, metrics and client counts. Its downloads land in
// downloadDir, or "" in its own folder under the coordinator's download
// dir; a dir it cannot write to fails here, before any browser starts.
func (c *Coordinator) buildInstance(opts launch.Options, l net.Listener, downloadDir string, usersBrowser launch.Launcher) (*Instance, error) {
	id := NewInstanceID(time.Now())
	tidy, check := downloadDir == "", downloadDir
	if tidy { // Chromium makes its own folder at its first download
		downloadDir, check = downloads.InstanceDir(c.cfg.DownloadDir, id), c.cfg.DownloadDir
	}
	if err := downloads.Prepare(check); err != nil {
		return nil, err
	}
	if c.guard != nil { // every launch is told to the guard before its spawn
		opts.Guard = c.guard
		c.guard.Downloads(downloadDir, tidy)
	}
	log := c.cfg.Log.With().Str("instance", id).Logger()
	spec := browser.Spec{Instance: id, Launch: opts, Launcher: launchers.For(c.cfg.Sys, opts.Browser), HangTimeout: c.cfg.HangTimeout, IdleStop: c.cfg.IdleStop, Words: c.cfg.Words, Log: log}
	if usersBrowser != nil {
		spec.Launcher, spec.UsersBrowser = usersBrowser, true
	}
	b := browser.New(spec)
	bidi := opts.Browser.Protocol() == launch.ProtocolBiDi
	var wl *worlds.Actor
	if !bidi { // a world is a browser context over CDP
		wl = worlds.New(worlds.Spec{Instance: id, Browser: b, Profiles: c.keptWorlds(), UsersBrowser: usersBrowser != nil, OnHost: c.journal.HostHook(), Journal: c.worldsJournal(), Downloads: downloadDir, MaxWorlds: c.cfg.MaxWorlds, Log: log})
	}
	var ext *extensions.Actor
	if !bidi { // loaded over CDP
		ext = extensions.New(extensions.Spec{Instance: id, Browser: b, Log: log})
	}
	var worldOf downloads.WorldOf // which world a context's downloads are
	if wl != nil {
		worldOf = wl.WorldOfContext
	}
	d := downloads.New(downloads.Spec{Instance: id, Dir: downloadDir, Tidy: tidy, Browser: b, WorldOf: worldOf, OnDownload: plug.Downloads(c.journal.DownloadHook(), c.recorder.DownloadHook()), Log: log})
	seen := plug.Instance{ID: id, Default: c.def == nil, Endpoint: proxy.EndpointOf(l), Browser: b, Worlds: wl, Downloads: d,
		Command: leases.CommandOf(c.cfg.StateDir, id, c.def == nil)}
	ctl := control.New(control.Spec{Worlds: wl, Browser: b, Endpoint: seen.Endpoint, Ports: c.cfg.Token == "",
		Stages: c.relayStages(seen), Hooks: c.worldHooks(seen), Journal: c.journal, Words: c.cfg.Words, Log: log})
	p := proxy.New(proxy.Spec{
		Instance: id, Browser: b, Status: b, AllowOrigins: c.cfg.AllowOrigins, Words: c.cfg.Words, Log: log, BiDi: bidi, Scopes: ctl.Scopes(),
		Mounts: append(c.mounts(), ctl.Mounts()...),
		Report: c.Report, Ready: c.Ready, Token: c.cfg.Token, AllowHosts: c.cfg.AllowHosts, Traffic: c.metrics.Traffic(), WatchBrowser: d.Watch, Extensions: ext,
		OnClients: func(ctx context.Context, n int) {
			c.clientsOf(id, n)
			_ = b.SetClients(ctx, n)
		},
	}, l)
	sup := suture.New("instance "+id, InstanceSupervisorSpec(c.hook))
	// suture v4 stops a supervisor's children at once, not in reverse order
	// (stopSupervisor cancels them concurrently): each stops on its own,
	// without counting on another being there still.
	sup.Add(d)
	sup.Add(b)
	if wl != nil {
		sup.Add(wl) // after the browser: it follows its events; before the endpoint: its relays ask it
	}
	if ext != nil {
		sup.Add(ext) // before the endpoint: its relays tell it, its Origin check asks it
	}
	if ports := ctl.Ports(p); ports != nil {
		sup.Add(ports)
	}
	sup.Add(p)
	return &Instance{ID: id, Browser: b, Proxy: p, Downloads: d, Worlds: wl, Control: ctl, Supervisor: sup, seen: seen, Created: time.Now(), Protocol: opts.Browser.Protocol()}, nil
}

package actors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/journal"
	"github.com/cdpvisor/cdpvisor/actors/launch"
	"github.com/cdpvisor/cdpvisor/actors/liveview"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// InstanceStatus is what coordinator_status and `status` report of one
// instance.
type InstanceStatus struct {
	ID       string         `json:"id"`
	Default  bool           `json:"default"`
	Endpoint string         `json:"endpoint"`
	Port     int            `json:"port"`
	WS       string         `json:"ws"`
	Protocol string         `json:"protocol"` // what WS speaks: cdp, or bidi (Firefox)
	Clients  int            `json:"clients"`
	Uptime   string         `json:"browser_uptime,omitempty"`
	Browser  browser.Status `json:"browser"`
	// DownloadDir is where its downloads land.
	DownloadDir string `json:"download_dir"`
}

// Status reports every instance, the default one first.
func (c *Coordinator) Status(ctx context.Context) ([]InstanceStatus, error) {
	var out []InstanceStatus
	for _, inst := range c.registry.All(ctx) {
		st, err := inst.Browser.Status(ctx)
		if err != nil {
			return nil, fmt.Errorf("status of %s: %w", inst.ID, err)
		}
		clients, _ := inst.Proxy.Clients(ctx)
		is := InstanceStatus{
			ID: inst.ID, Default: inst == c.def, Endpoint: inst.Proxy.Endpoint(), Port: inst.Proxy.Port(),
			WS: inst.Proxy.BrowserWS(), Protocol: string(inst.Protocol), Clients: clients, Browser: st, DownloadDir: inst.Downloads.Dir(),
		}
		if st.StartedAt != nil {
			is.Uptime = time.Since(*st.StartedAt).Round(time.Second).String()
		}
		out = append(out, is)
	}
	return out, nil
}

// Reports are what the features add to an instance's status, by their
// keys.
func (c *Coordinator) Reports(ctx context.Context, instance string) map[string]any {
	out := map[string]any{}
	for _, f := range c.features {
		if r, ok := f.(plug.Reporter); ok {
			if key, v, ok := r.Report(ctx, instance); ok {
				out[key] = v
			}
		}
	}
	return out
}

// Progress reports a step of a long operation (MCP progress notifications).
type Progress func(step string)

// Close codes for clients of a restarted or stopped browser.
const (
	CloseServiceRestart = 1012 // clients reconnect at once
	CloseGoingAway      = 1001
)

// LaunchBrowser launches an instance's browser, or switches it to other
// options: the old one stops, the new one starts behind the same endpoint,
// and client websockets are closed with 1012 so they reconnect to it.
func (c *Coordinator) LaunchBrowser(ctx context.Context, ref string, change browser.Change, progress Progress) (Relaunched, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return Relaunched{}, err
	}
	// An endpoint never changes protocol under its clients: Firefox on a
	// CDP instance (or the reverse) is refused before anything stops.
	if err := c.checkFamily(inst, change); err != nil {
		return Relaunched{}, err
	}
	progress.say("launching the browser of " + inst.ID)
	ep, err := inst.Browser.Launch(ctx, change)
	if err != nil {
		return Relaunched{}, err
	}
	n := c.reconnectClients(ctx, inst, "the browser was switched")
	progress.say(fmt.Sprintf("ready: %s, generation %d, %s", ep.Browser.Path, ep.Generation, ep.PidText()))
	return relaunched(inst, ep, n), nil
}

// Relaunched is a browser launched anew for a tool, the stable endpoint
// it is behind, and how many client connections were closed with 1012 so
// they reconnect to it.
type Relaunched struct {
	browser.Endpoint
	Stable      string          // the instance's endpoint, http://127.0.0.1:PORT
	StableWS    string          // its stable websocket: /devtools/browser, or /session for BiDi
	Protocol    launch.Protocol // what the endpoint serves
	Reconnected int
}

func relaunched(inst *Instance, ep browser.Endpoint, n int) Relaunched {
	return Relaunched{Endpoint: ep, Stable: inst.Proxy.Endpoint(), StableWS: inst.Proxy.BrowserWS(), Protocol: inst.Protocol, Reconnected: n}
}

// StopBrowser stops an instance's browser; its clients are closed, and the
// next request on the endpoint launches a browser again.
func (c *Coordinator) StopBrowser(ctx context.Context, ref string) (*Instance, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return nil, err
	}
	if err := inst.Browser.Stop(ctx); err != nil {
		return inst, err
	}
	_, _ = inst.Proxy.CloseClients(ctx, CloseGoingAway, "the browser was stopped (coordinator_stop_browser)")
	return inst, nil
}

// RestartBrowser stops and relaunches an instance's browser with the
// options of its last launch (refused for a young healthy browser unless
// force); clients are closed with 1012.
func (c *Coordinator) RestartBrowser(ctx context.Context, ref string, force bool, progress Progress) (Relaunched, error) {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return Relaunched{}, err
	}
	progress.say("restarting the browser of " + inst.ID)
	ep, err := inst.Browser.Restart(ctx, force)
	if err != nil {
		return Relaunched{}, err
	}
	n := c.reconnectClients(ctx, inst, "the browser was restarted")
	progress.say(fmt.Sprintf("ready: generation %d, %s", ep.Generation, ep.PidText()))
	return relaunched(inst, ep, n), nil
}

func (c *Coordinator) reconnectClients(ctx context.Context, inst *Instance, why string) int {
	n, _ := inst.Proxy.CloseClients(ctx, CloseServiceRestart, why+"; reconnect")
	if n > 0 {
		c.cfg.Log.Info().Str("instance", inst.ID).Int("clients", n).Msg("clients closed with 1012 so they reconnect")
	}
	return n
}

func (p Progress) say(step string) {
	if p != nil {
		p(step)
	}
}

// Report is the coordinator's health report: every instance, the default
// one first; it launches nothing.
func (c *Coordinator) Report(ctx context.Context) state.Report {
	rep := state.Report{PID: os.Getpid()}
	for _, inst := range c.registry.All(ctx) {
		st, err := inst.Browser.Status(ctx)
		ir := state.NewInstanceReport(inst.ID, inst.Proxy.Endpoint(), st, 0)
		if err != nil {
			ir.Status, ir.Error = state.StatusDegraded, "no answer from its browser actor: "+err.Error()
		}
		ir.Clients, _ = inst.Proxy.Clients(ctx)
		ir.DownloadDir = inst.Downloads.Dir()
		if inst == c.def {
			rep.Instances = append([]state.InstanceReport{ir}, rep.Instances...)
		} else {
			rep.Instances = append(rep.Instances, ir)
		}
	}
	rep.Summarize()
	return rep
}

// Touch counts as demand on every instance (an MCP tool call): their idle
// stop starts counting again. It launches nothing.
func (c *Coordinator) Touch(ctx context.Context) {
	for _, inst := range c.registry.All(ctx) {
		_ = inst.Browser.Touch(ctx)
	}
}

// RequestHuman asks a human through the live view to look at a world
// ("": the most recently active one) and waits for their answer until ctx
// ends. A world is looked for in every instance, the default one first.
func (c *Coordinator) RequestHuman(ctx context.Context, world, reason string) (liveview.HumanAnswer, error) {
	req := liveview.HumanRequest{Instance: c.def.ID, World: world, Reason: reason}
	if world != "" {
		for _, inst := range c.registry.All(ctx) {
			if inst.Worlds == nil {
				continue
			}
			list, err := inst.Worlds.List(ctx)
			if err == nil && slices.ContainsFunc(list, func(s worlds.Summary) bool { return s.Name == world }) {
				req.Instance = inst.ID
				break
			}
		}
	}
	return c.liveView.RequestHuman(ctx, req)
}

// ErrNoJournal: the coordinator keeps no journal (serve --journal=false).
var ErrNoJournal = errors.New("the journal is off: this coordinator keeps no journal of its worlds")

// Journal is the journal of the world called name after since (an
// entry's seq or an RFC 3339 time; "": all of it), oldest first.
func (c *Coordinator) Journal(ctx context.Context, name, since string) ([]journal.Entry, error) {
	if c.journal == nil {
		return nil, ErrNoJournal
	}
	s, err := journal.ParseSince(since)
	if err != nil {
		return nil, err
	}
	return c.journal.Read(ctx, name, s, false)
}

// WorldTrace writes the recording of the world called name of the
// instance ref ("" the default) to out: a Playwright trace, or a video
// (q.Format).
func (c *Coordinator) WorldTrace(ctx context.Context, ref, name string, q worldapi.TraceQuery, out io.Writer) error {
	inst, err := c.Instance(ctx, ref)
	if err != nil {
		return err
	}
	if err := worlds.CheckName(name); err != nil {
		return err
	}
	return c.recorder.Trace(ctx, inst.ID, name, q, out)
}

// TracesDir is where the MCP tools write the worlds' recordings asked of
// them (browser_context trace): a folder of the download dir, beside the
// instances' downloads, where a person finds files the agents made.
func (c *Coordinator) TracesDir() string { return filepath.Join(c.cfg.DownloadDir, "traces") }

package state

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// CoordinatorStatus is one coordinator as `cdpvisor status` shows it.
type CoordinatorStatus = CoordinatorStatusOf[InstanceStatus]

// CoordinatorStatusOf is one coordinator, each of its instances an I:
// InstanceStatus, or an edge's that adds to it in the fields after
// InstanceStatus's (coordinator_status: each instance's worlds).
type CoordinatorStatusOf[I any] struct {
	PID       int       `json:"pid,omitempty"` // absent for a corrupt state file
	PPID      int       `json:"ppid"`
	StartedAt time.Time `json:"started_at"`
	Version   string    `json:"version"`
	StateFile string    `json:"state_file"`
	Live      bool      `json:"live"`
	Problem   string    `json:"problem,omitempty"` // why it is not live
	Instances []I       `json:"instances"`         // [] when it is not live
	// LiveView is the live view's URL (/ui), where a human watches and
	// takes over; "" when not known (another coordinator's status).
	LiveView string `json:"live_view,omitempty"`
}

type InstanceStatus struct {
	ID       string `json:"id"`
	Endpoint string `json:"endpoint"`
	Port     int    `json:"port"`
	// WS is where a client's websocket goes, and Protocol what it speaks
	// there: "cdp", or "bidi" (a Firefox's /session).
	WS       string          `json:"ws"`
	Protocol string          `json:"protocol"`
	Clients  int             `json:"clients"`
	Browser  *browser.Status `json:"browser,omitempty"`
	// UptimeSeconds is how long its browser has run (absent when none runs).
	UptimeSeconds float64 `json:"uptime_seconds,omitempty"`
	// DownloadDir is where its downloads land (absent for coordinators
	// older than downloads).
	DownloadDir string `json:"download_dir,omitempty"`
	// Pressure is how hard pressed it is, as its endpoint's PressurePath
	// tells (absent for older coordinators).
	Pressure json.RawMessage `json:"pressure,omitempty"`
}

// LiveViewPath is where a coordinator's endpoint serves its live view.
const LiveViewPath = "/ui"

// Collect reads every state file and asks each live coordinator's
// instances how they are (health answers never launch a browser); log
// hears, at debug level, of the state files another user owns, which it
// ignores.
func Collect(ctx context.Context, dir string, log zerolog.Logger) []CoordinatorStatus {
	out := []CoordinatorStatus{} // [] for none, never null
	foreign := func(p string) {
		log.Debug().Str("path", p).Msg("ignoring a state file another user owns")
	}
	for _, p := range stateFiles(dir, foreign) { // another user's are not ours to show
		s, err := Read(p)
		if err != nil {
			out = append(out, CoordinatorStatus{StateFile: p, Problem: "corrupt state file: " + err.Error(), Instances: []InstanceStatus{}})
			continue
		}
		c := CoordinatorStatus{PID: s.PID, PPID: s.PPID, StartedAt: s.StartedAt, Version: s.Version, StateFile: p, Instances: []InstanceStatus{}}
		cand := &candidate{target: Target{Path: p, State: s, Port: s.Port}}
		checkCandidate(ctx, cand)
		switch {
		case cand.stale:
			c.Problem = "stale: its pid is gone (the next coordinator reaps it)"
		case !cand.live:
			c.Problem = "not answering: " + cand.why
		default:
			c.Live = true
		}
		if c.Live {
			if s.Endpoint != "" {
				c.LiveView = s.Endpoint + LiveViewPath
			}
			for _, inst := range s.Instances {
				is := InstanceStatus{ID: inst.ID, Endpoint: inst.Endpoint, Port: inst.Port, WS: inst.WS,
					Protocol: string(ProtocolOf(inst.Protocol, inst.WS)), DownloadDir: inst.DownloadDir}
				if h, err := fetchHealth(ctx, inst.Port); err == nil && h.PID == s.PID {
					is.Clients, is.Browser = h.Clients, h.Browser
					if b := h.Browser; b != nil && b.Running() {
						is.UptimeSeconds = time.Since(*b.StartedAt).Round(time.Second).Seconds()
					}
					is.Pressure, _ = fetchPressure(ctx, s.Port, inst.ID)
				}
				c.Instances = append(c.Instances, is)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.After(out[j].StartedAt) })
	return out
}

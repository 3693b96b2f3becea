package state

import (
	"context"
	"sort"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// CoordinatorStatus is one coordinator as `cdpvisor status` shows it.
type CoordinatorStatus struct {
	PID       int              `json:"pid,omitempty"` // absent for a corrupt state file
	PPID      int              `json:"ppid"`
	StartedAt time.Time        `json:"started_at"`
	Version   string           `json:"version"`
	StateFile string           `json:"state_file"`
	Live      bool             `json:"live"`
	Problem   string           `json:"problem,omitempty"` // why it is not live
	Instances []InstanceStatus `json:"instances"`         // [] when it is not live
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
	// Worlds are its open worlds (/context/NAME), by name; absent when it
	// has none, and in `status`, which reads the health answers only.
	Worlds []WorldStatus `json:"worlds,omitempty"`
}

// WorldStatus is one world of an instance: a browser context of its own on
// the instance's browser, at Endpoint (its own port,
// http://127.0.0.1:WPORT) and at PathEndpoint
// (http://127.0.0.1:PORT/context/NAME). It is also the answer of the
// coordinator's world requests (WorldsPath).
type WorldStatus struct {
	Name string `json:"name"`
	// Endpoint is the world's port form; the path form where worlds have
	// no ports (an endpoint beyond loopback, serve --listen).
	Endpoint     string `json:"endpoint"`
	PathEndpoint string `json:"path_endpoint"`
	Port         int    `json:"port,omitempty"`    // the world's own port; 0: none
	WS           string `json:"ws,omitempty"`      // its browser websocket, on Endpoint
	Clients      int    `json:"clients"`           // its client connections
	Pages        int    `json:"pages"`             // its pages in the running browser
	Created      bool   `json:"created,omitempty"` // made by the request that answers it
	// Open: the world is open; a kept world that is not is listed for its
	// profile alone (no port, no clients), and made again on its first use.
	Open bool `json:"open"`
	// Kept: its cookies and localStorage are kept on disk (every named
	// world but a fresh agent-… one); SavedBytes and SavedAt say its
	// profile's size and last save, once it was saved.
	Kept       bool       `json:"kept"`
	SavedBytes int64      `json:"saved_bytes,omitempty"`
	SavedAt    *time.Time `json:"saved_at,omitempty"`
	// Seeded is what the request's seed gave the world (WorldSeed).
	Seeded *WorldSeeded `json:"seeded,omitempty"`
	// Policy is the world's network policy and upstream proxy; nil: neither.
	Policy *WorldPolicy `json:"policy,omitempty"`
}

// WorldsPath is where a coordinator's endpoint makes, lists and closes its
// worlds for other processes of its owner (wrap --isolate, cdpvisor
// world): GET WorldsPath lists them, PUT WorldsPath/NAME makes or finds
// one (seeded by its body, a WorldSeed), GET shows one, DELETE closes one
// (?forget=1: and deletes its profile); each answers WorldStatus JSON.
const WorldsPath = "/cdpvisor/worlds"

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
				}
				c.Instances = append(c.Instances, is)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.After(out[j].StartedAt) })
	return out
}

package state

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// WorldPolicy is a world's network policy as the world requests, the
// lists and the MCP tool carry it: host patterns (example.com,
// *.example.com, 127.0.0.1:8080, [::1]:PORT); deny wins; an empty allow
// list allows all but the denied. And its upstream proxy.
type WorldPolicy struct {
	AllowHosts []string `json:"allow_hosts,omitempty"`
	DenyHosts  []string `json:"deny_hosts,omitempty"`
	// Proxy is the world's upstream proxy: http://[user:pass@]host:port or
	// socks5://…; in the lists, without its credentials
	// (http://***@host:port). A proxy alone is no policy: private
	// addresses stay open to the world.
	Proxy string `json:"proxy,omitempty"`
	// Hosts is what the world's requests reached and were denied since its
	// guard started, by host:port (lists only; a request's is ignored).
	Hosts map[string]HostCount `json:"hosts,omitempty"`
}

// HostCount is how often a world's requests reached or were denied one
// host:port.
type HostCount struct {
	Reached int `json:"reached"`
	Denied  int `json:"denied"`
}

// Empty says the world has no policy and no upstream proxy.
func (p WorldPolicy) Empty() bool {
	return len(p.AllowHosts) == 0 && len(p.DenyHosts) == 0 && p.Proxy == ""
}

// Guarded says the world has host lists: a policy (a proxy alone is none).
func (p WorldPolicy) Guarded() bool { return len(p.AllowHosts) > 0 || len(p.DenyHosts) > 0 }

// WorldOpen is the body of PUT WorldsPath/NAME: a seed and a network
// policy, each optional.
type WorldOpen struct {
	WorldSeed
	WorldPolicy
}

// ErrNoPolicy: the coordinator made the world without its network policy
// (one older than policies): nothing may run in it as if it had one.
var ErrNoPolicy = errors.New("the coordinator did not apply the world's network policy (older than guardrails); restart it")

// OpenWorldWith is OpenSeededWorld with a network policy too. A policy not
// applied is an error (ErrWorldRefused with the coordinator's reason, or
// ErrNoPolicy): a guarded world never silently opens without its guard.
func OpenWorldWith(ctx context.Context, endpoint, name string, open WorldOpen) (WorldStatus, error) {
	if open.WorldPolicy.Empty() {
		return OpenSeededWorld(ctx, endpoint, name, open.WorldSeed)
	}
	body, err := json.Marshal(open)
	if err != nil {
		return WorldStatus{}, err
	}
	var ws WorldStatus
	if _, err := worldRequest(ctx, http.MethodPut, endpoint+WorldsPath+"/"+name, body, &ws); err != nil {
		return ws, err
	}
	if ws.Policy == nil {
		return ws, ErrNoPolicy
	}
	if !open.WorldSeed.Empty() && ws.Seeded == nil {
		return ws, ErrNoStorage
	}
	return ws, nil
}

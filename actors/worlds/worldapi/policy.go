package worldapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// Policy is a world's network policy as the world requests, the
// lists and the MCP tool carry it: host patterns (example.com,
// *.example.com, 127.0.0.1:8080, [::1]:PORT); deny wins; an empty allow
// list allows all but the denied. And its upstream proxy.
type Policy struct {
	AllowHosts []string `json:"allow_hosts,omitempty"`
	DenyHosts  []string `json:"deny_hosts,omitempty"`
	// Proxy is the world's upstream proxy: http://[user:pass@]host:port or
	// socks5://…; in the lists, without its credentials
	// (http://***@host:port). A proxy alone is no policy: private
	// addresses stay open to the world.
	Proxy string `json:"proxy,omitempty"`
	// AllowFiles are folders besides the world's own whose files its
	// clients may hand its pages (absolute; a request's are resolved at
	// the edge: ~ and relative paths, each an existing directory). Only
	// with a guard (host lists or a proxy): a world without one reaches
	// every file of its owner already.
	AllowFiles []string `json:"allow_files,omitempty"`
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

// Empty says the request gives no policy, no upstream proxy and no
// folders.
func (p Policy) Empty() bool {
	return len(p.AllowHosts) == 0 && len(p.DenyHosts) == 0 && p.Proxy == "" && len(p.AllowFiles) == 0
}

// Guarded says the world has host lists: a policy (a proxy alone is none).
func (p Policy) Guarded() bool { return len(p.AllowHosts) > 0 || len(p.DenyHosts) > 0 }

// OpenRequest is the body of PUT Path/NAME: a seed and a network
// policy, each optional.
type OpenRequest struct {
	Seed
	Policy
	// Replace gives a kept world the policy given although it keeps
	// another with its profile (else ErrPolicyKept).
	Replace bool `json:"replace,omitempty"`
	// Record turns the world's recording on or off (the recorder's switch,
	// kept with a named world); nil: as it was, or as the coordinator's
	// --record says.
	Record *bool `json:"record,omitempty"`
}

// Errors of a world's policy.
var (
	// ErrNoPolicy: the coordinator made the world without its network
	// policy (one older than policies): nothing may run in it as if it
	// had one.
	ErrNoPolicy = errors.New("the coordinator did not apply the world's network policy (older than guardrails); restart it")
	// ErrPolicyKept: a policy given for a kept world that keeps another
	// with its profile, without replace. The coordinator answers it 409,
	// its text in the answer's (how the client knows it again).
	ErrPolicyKept = errors.New("it keeps another network policy with its profile")
)

// OpenWith is OpenSeeded with a network policy too. A policy not
// applied is an error (ErrRefused with the coordinator's reason, or
// ErrNoPolicy): a guarded world never silently opens without its guard.
func OpenWith(ctx context.Context, endpoint, name string, open OpenRequest) (Status, error) {
	if open.Policy.Empty() && open.Record == nil {
		return OpenSeeded(ctx, endpoint, name, open.Seed)
	}
	body, err := json.Marshal(open)
	if err != nil {
		return Status{}, err
	}
	var ws Status
	if _, err := request(ctx, http.MethodPut, endpoint+Path+"/"+name, body, &ws); err != nil {
		return ws, err
	}
	if ws.Policy == nil && !open.Policy.Empty() {
		return ws, ErrNoPolicy
	}
	if !open.Seed.Empty() && ws.Seeded == nil {
		return ws, ErrNoStorage
	}
	return ws, nil
}

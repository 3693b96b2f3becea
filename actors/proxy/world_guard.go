package proxy

import (
	"context"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// ErrBadPolicy refuses a world's network policy that cannot be read, before
// anything is made.
var ErrBadPolicy = errors.New("not a network policy")

// PolicyOf reads a world's network policy and upstream proxy (the HTTP
// body's and the MCP tool's allow_hosts, deny_hosts and proxy); none when
// it has neither. Its errors name every pattern it cannot read, and a
// proxy's URL never (it may hold a password).
func PolicyOf(p state.WorldPolicy) (worlds.Network, error) {
	var n worlds.Network
	var errs []error
	if p.Guarded() {
		pol, err := guard.ParsePolicy(p.AllowHosts, p.DenyHosts)
		if err != nil {
			errs = append(errs, err)
		}
		n.Policy = pol
	}
	if p.Proxy != "" {
		up, err := guard.ParseUpstream(p.Proxy)
		if err != nil {
			errs = append(errs, fmt.Errorf("proxy: %w", err))
		}
		n.Upstream = up
	}
	if len(errs) > 0 {
		return worlds.Network{}, fmt.Errorf("%w: %w", ErrBadPolicy, errors.Join(errs...))
	}
	return n, nil
}

// GuardWorld makes the world called name with its network policy, or
// gives the guarded world open under that name the new one (the owner's
// change); made says it was new. A policy that cannot be read is refused
// before anything is made; an empty one does nothing.
func (p *Actor) GuardWorld(ctx context.Context, name string, r state.WorldPolicy) (made bool, err error) {
	n, err := PolicyOf(r)
	if err != nil || n.None() {
		return false, err
	}
	if p.spec.Worlds == nil {
		return false, ErrNoWorlds
	}
	return p.spec.Worlds.MakeGuarded(ctx, name, n)
}

// policyStatus is a world's policy as the lists show it.
func policyStatus(info *worlds.PolicyInfo) *state.WorldPolicy {
	if info == nil {
		return nil
	}
	p := &state.WorldPolicy{AllowHosts: info.AllowHosts, DenyHosts: info.DenyHosts, Proxy: info.Proxy}
	if len(info.Counts) > 0 {
		p.Hosts = make(map[string]state.HostCount, len(info.Counts))
		for h, c := range info.Counts {
			p.Hosts[h] = state.HostCount{Reached: c.Reached, Denied: c.Denied}
		}
	}
	return p
}

// refusedPolicy says err is a policy refused as given (400).
func refusedPolicy(err error) bool {
	return errors.Is(err, ErrBadPolicy) || errors.Is(err, worlds.ErrPolicyNeedsNewWorld)
}

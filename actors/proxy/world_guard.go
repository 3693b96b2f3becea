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

// PolicyOf reads a world's network policy (the HTTP body's and the MCP
// tool's allow_hosts and deny_hosts); nil when it has none. Its errors name
// every pattern it cannot read.
func PolicyOf(p state.WorldPolicy) (*guard.Policy, error) {
	if p.Empty() {
		return nil, nil
	}
	pol, err := guard.ParsePolicy(p.AllowHosts, p.DenyHosts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadPolicy, err)
	}
	return pol, nil
}

// GuardWorld makes the world called name with its network policy, or
// gives the guarded world open under that name the new one (the owner's
// change); made says it was new. A policy that cannot be read is refused
// before anything is made; an empty one does nothing.
func (p *Actor) GuardWorld(ctx context.Context, name string, r state.WorldPolicy) (made bool, err error) {
	pol, err := PolicyOf(r)
	if err != nil || pol == nil {
		return false, err
	}
	if p.spec.Worlds == nil {
		return false, ErrNoWorlds
	}
	return p.spec.Worlds.MakeGuarded(ctx, name, pol)
}

// policyStatus is a world's policy as the lists show it.
func policyStatus(info *worlds.PolicyInfo) *state.WorldPolicy {
	if info == nil {
		return nil
	}
	p := &state.WorldPolicy{AllowHosts: info.AllowHosts, DenyHosts: info.DenyHosts}
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

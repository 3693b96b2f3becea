package control

import (
	"context"
	"errors"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// ErrBadPolicy refuses a world's network policy that cannot be read, before
// anything is made.
var ErrBadPolicy = worlds.ErrBadPolicy

// PolicyOf reads a world's network policy, upstream proxy and folders (the
// HTTP body's and the MCP tool's allow_hosts, deny_hosts, proxy and
// allow_files); none when it has none. The folders are resolved here, the
// edge (worlds.Folders): ~ and relative paths, each a directory that
// exists. Its errors name every pattern and folder it cannot take, and a
// proxy's URL never (it may hold a password).
func PolicyOf(p worldapi.Policy) (worlds.Network, error) {
	if len(p.AllowFiles) > 0 && !p.Guarded() && p.Proxy == "" {
		return worlds.Network{}, fmt.Errorf("%w: %w", ErrBadPolicy, worlds.ErrFilesNeedGuard)
	}
	files, err := worlds.Folders("allow_files", p.AllowFiles)
	if err != nil {
		return worlds.Network{}, fmt.Errorf("%w: %w", ErrBadPolicy, err)
	}
	p.AllowFiles = files
	return worlds.NetworkOf(p)
}

// GuardWorld makes the world called name with its network policy, or
// gives the guarded world open under that name the new one (the owner's
// change); made says it was new. A kept world that keeps another policy
// gets this one only with replace. A policy that cannot be read is
// refused before anything is made; an empty one does nothing.
func (c *Control) GuardWorld(ctx context.Context, name string, r worldapi.Policy, replace bool) (made bool, err error) {
	if r.Empty() {
		return false, nil
	}
	if err := c.ready(name); err != nil {
		return false, err
	}
	n, err := PolicyOf(r)
	if err != nil || n.None() {
		return false, err
	}
	return c.spec.Worlds.MakeGuarded(ctx, name, n, replace)
}

// ErrReplaceAlone: replace without a policy to replace the kept one with.
var ErrReplaceAlone = fmt.Errorf("%w: replace replaces a kept world's network policy with the one given: give allow_hosts, deny_hosts or proxy with it", ErrBadPolicy)

// policyStatus is a world's policy as the lists show it.
func policyStatus(info *worlds.PolicyInfo) *worldapi.Policy {
	if info == nil {
		return nil
	}
	p := &worldapi.Policy{AllowHosts: info.AllowHosts, DenyHosts: info.DenyHosts, Proxy: info.Proxy, AllowFiles: info.AllowFiles}
	if len(info.Counts) > 0 {
		p.Hosts = make(map[string]worldapi.HostCount, len(info.Counts))
		for h, c := range info.Counts {
			p.Hosts[h] = worldapi.HostCount{Reached: c.Reached, Denied: c.Denied}
		}
	}
	return p
}

// refusedPolicy says err is a policy refused as given (400).
func refusedPolicy(err error) bool {
	return errors.Is(err, ErrBadPolicy) || errors.Is(err, worlds.ErrPolicyNeedsNewWorld)
}

package mcptools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// guardWorld gives browser_context open's world its network policy
// (allow_hosts, deny_hosts) and upstream proxy before anything else: its
// first context is made with its guard. made says the world was new;
// nothing without either.
func guardWorld(ctx context.Context, d deps, id, name string, a contextArgs) (bool, error) {
	policy := state.WorldPolicy{AllowHosts: a.AllowHosts, DenyHosts: a.DenyHosts}
	if a.Proxy != nil {
		if policy.Proxy = strings.TrimSpace(*a.Proxy); policy.Proxy == "" {
			return false, fmt.Errorf("%w: proxy is empty; want %s", proxy.ErrBadPolicy, guard.UpstreamForms)
		}
	}
	if policy.Empty() {
		return false, nil
	}
	if _, err := proxy.PolicyOf(policy); err != nil { // checked whole before the coordinator is asked
		return false, err
	}
	return d.c.GuardWorld(ctx, id, name, policy)
}

// policyError words a refused policy: nothing was made or changed.
func policyError(tool string, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, proxy.ErrBadPolicy) || errors.Is(err, worlds.ErrPolicyNeedsNewWorld) || errors.Is(err, guard.ErrUpstreamUnreachable) {
		err = fmt.Errorf("%w; nothing was made or changed", err)
	}
	return toolError(tool, err)
}

// policyNote says a world's network policy in a list's line.
func policyNote(p *state.WorldPolicy) string {
	if p == nil {
		return ""
	}
	var note string
	if p.Guarded() {
		allow := "all hosts but private addresses"
		if len(p.AllowHosts) > 0 {
			allow = strings.Join(p.AllowHosts, ", ")
		}
		note = "; network policy: allow " + allow
		if len(p.DenyHosts) > 0 {
			note += "; deny " + strings.Join(p.DenyHosts, ", ")
		}
	}
	if p.Proxy != "" { // without its credentials, as the coordinator lists it
		note += "; upstream proxy " + p.Proxy
	}
	return note
}

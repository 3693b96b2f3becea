package mcptools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/control"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// policyParams are browser_context open's network policy: its hosts, its
// upstream proxy, its folders, and replace.
var policyParams = []param{
	{name: "allow_hosts", want: "an array of host patterns (strings)", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
		"description": "For open: the world's network policy, enforced by the browser for everything the world loads (pages, frames, workers, fetch, websockets, " +
			"contexts its clients make); no client of the world can lift it, and the world reaches no local file and no page of the browser's own. " +
			"Only these hosts may be reached: example.com, *.example.com (its subdomains), " +
			"127.0.0.1:8080, [::1]:8080. Empty: all but deny_hosts. Private, loopback and link-local addresses only when named here. " +
			"A named world keeps its policy (with proxy and allow_files) for when it is opened again, by anyone, after restarts too, until close with forget; " +
			"given again on a world open or kept with another policy, it is refused unless replace is true."}},
	{name: "deny_hosts", want: "an array of host patterns (strings)", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
		"description": "For open: hosts the world may never reach (patterns as allow_hosts); deny wins."}},
	{name: "proxy", want: "a string: http://[user:pass@]host:port or socks5://[user:pass@]host:port", schema: map[string]any{"type": "string",
		"description": "For open: the world's upstream proxy, http://[user:pass@]host:port or socks5://[user:pass@]host:port: everything the world loads " +
			"leaves through it (after allow_hosts and deny_hosts, if given); other worlds' traffic does not. It must answer at the world's making. " +
			"Its credentials are never shown (lists say http://***@host:port). Alone it is no network policy: private addresses stay reachable."}},
	{name: "allow_files", want: "an array of folders (strings)", schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"},
		"description": "For open, with allow_hosts, deny_hosts or proxy: folders besides the world's own whose files its clients may hand its pages " +
			"(a file input's DOM.setFileInputFiles), e.g. [\"~/uploads\"]; each an existing folder (~ is the home). A world without a guard reaches every file already."}},
	{name: "replace", want: "a boolean", schema: map[string]any{"type": "boolean",
		"description": "For open with a policy: true replaces the policy a named world keeps (open or not) with the one given; without it another policy is refused."}},
}

// guardWorld gives browser_context open's world its network policy
// (allow_hosts, deny_hosts, allow_files) and upstream proxy before
// anything else: its first context is made with its guard. made says the
// world was new; nothing without either.
func guardWorld(ctx context.Context, d deps, id, name string, a contextArgs) (bool, error) {
	policy := worldapi.Policy{AllowHosts: a.AllowHosts, DenyHosts: a.DenyHosts, AllowFiles: a.AllowFiles}
	if a.Proxy != nil {
		if policy.Proxy = strings.TrimSpace(*a.Proxy); policy.Proxy == "" {
			return false, fmt.Errorf("%w: proxy is empty; want %s", control.ErrBadPolicy, guard.UpstreamForms)
		}
	}
	replace := a.Replace != nil && *a.Replace
	if policy.Empty() {
		if replace {
			return false, control.ErrReplaceAlone
		}
		return false, nil
	}
	if _, err := control.PolicyOf(policy); err != nil { // checked whole before the coordinator is asked
		return false, err
	}
	w, err := d.c.WorldsOf(ctx, id)
	if err != nil {
		return false, err
	}
	return w.GuardWorld(ctx, name, policy, replace)
}

// policyError words a refused policy: nothing was made or changed.
func policyError(tool string, err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, control.ErrBadPolicy) || errors.Is(err, worlds.ErrPolicyNeedsNewWorld) || errors.Is(err, guard.ErrUpstreamUnreachable) ||
		errors.Is(err, worldapi.ErrPolicyKept) {
		err = fmt.Errorf("%w; nothing was made or changed", err)
	}
	return toolError(tool, err)
}

// policyNote says a world's network policy in a list's line.
func policyNote(p *worldapi.Policy) string {
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
	if len(p.AllowFiles) > 0 {
		note += "; files from " + strings.Join(p.AllowFiles, ", ")
	}
	return note
}

package seedflags

import (
	"flag"
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/state"
)

// Policy is a world's network policy as given on the command line, beside
// its seed: --allow-host P and --deny-host P, each repeatable (or
// P,P…), and its upstream proxy, --proxy URL. Checked whole before
// anything is sent.
type Policy struct {
	Allow HostList
	Deny  HostList
	Proxy string
}

// Register puts the policy's flags on fs.
func (p *Policy) Register(fs *flag.FlagSet) {
	fs.Var(&p.Allow, "allow-host", "the world may reach only these hosts: example.com, *.example.com, 127.0.0.1:8080, [::1]:8080 (repeatable, or P,P…); "+
		"enforced by the browser for everything the world loads; private and loopback addresses only when named")
	fs.Var(&p.Deny, "deny-host", "the world may never reach these hosts (patterns as --allow-host; repeatable); deny wins")
	fs.StringVar(&p.Proxy, "proxy", "", "the world's upstream proxy, "+guard.UpstreamForms+": everything the world loads leaves through it, "+
		"other worlds' traffic does not; never shown with its credentials")
}

// PolicyNames are the policy's flags, for the refusals.
const PolicyNames = "--allow-host, --deny-host and --proxy"

// Given says a policy or an upstream proxy was asked for.
func (p *Policy) Given() bool { return len(p.Allow) > 0 || len(p.Deny) > 0 || p.Proxy != "" }

// Request checks every pattern and the proxy's URL: the policy to send, or
// an error naming each pattern it cannot read and what is wrong with the
// URL (never the URL: it may hold a password).
func (p *Policy) Request() (state.WorldPolicy, error) {
	req := state.WorldPolicy{AllowHosts: p.Allow, DenyHosts: p.Deny, Proxy: strings.TrimSpace(p.Proxy)}
	if len(p.Allow) > 0 || len(p.Deny) > 0 {
		if _, err := guard.ParsePolicy(p.Allow, p.Deny); err != nil {
			return req, fmt.Errorf("--allow-host and --deny-host: %w", err)
		}
	}
	if req.Proxy != "" {
		if _, err := guard.ParseUpstream(req.Proxy); err != nil {
			return req, fmt.Errorf("--proxy: %w", err)
		}
	}
	return req, nil
}

// HostList is --allow-host or --deny-host: repeatable, each value P[,P…].
// Command line only: a policy left set in a shell's environment would
// silently apply to every world made there (and serve's --allow-host,
// a Host name, shares the variable CDPVISOR_ALLOW_HOST).
type HostList []string

func (l *HostList) String() string { return strings.Join(*l, ",") }

func (l *HostList) Set(v string) error {
	*l = append(*l, splitList(v)...)
	return nil
}

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
// P,P…). Checked whole before anything is sent.
type Policy struct {
	Allow HostList
	Deny  HostList
}

// Register puts the policy's flags on fs.
func (p *Policy) Register(fs *flag.FlagSet) {
	fs.Var(&p.Allow, "allow-host", "the world may reach only these hosts: example.com, *.example.com, 127.0.0.1:8080, [::1]:8080 (repeatable, or P,P…); "+
		"enforced by the browser for everything the world loads; private and loopback addresses only when named")
	fs.Var(&p.Deny, "deny-host", "the world may never reach these hosts (patterns as --allow-host; repeatable); deny wins")
}

// PolicyNames are the policy's flags, for the refusals.
const PolicyNames = "--allow-host and --deny-host"

// Given says a policy was asked for.
func (p *Policy) Given() bool { return len(p.Allow) > 0 || len(p.Deny) > 0 }

// Request checks every pattern: the policy to send, or an error naming
// each pattern it cannot read.
func (p *Policy) Request() (state.WorldPolicy, error) {
	req := state.WorldPolicy{AllowHosts: p.Allow, DenyHosts: p.Deny}
	if !p.Given() {
		return req, nil
	}
	if _, err := guard.ParsePolicy(p.Allow, p.Deny); err != nil {
		return req, fmt.Errorf("%s: %w", PolicyNames, err)
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

package seedflags

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/guard"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/actors/worlds/worldapi"
)

// Policy is a world's network policy as given on the command line, beside
// its seed: --allow-host P and --deny-host P, each repeatable (or
// P,P…), its upstream proxy, --proxy URL, the folders its pages may get
// files from, --allow-file DIR (repeatable), and --replace (a kept
// world's policy replaced). Checked whole before anything is sent.
type Policy struct {
	Allow   HostList
	Deny    HostList
	Proxy   string
	Files   FileList
	Replace bool
}

// Register puts the policy's flags on fs.
func (p *Policy) Register(fs *flag.FlagSet) {
	fs.Var(&p.Allow, "allow-host", "the world may reach only these hosts: example.com, *.example.com, 127.0.0.1:8080, [::1]:8080 (repeatable, or P,P…); "+
		"enforced by the browser for everything the world loads; private and loopback addresses only when named")
	fs.Var(&p.Deny, "deny-host", "the world may never reach these hosts (patterns as --allow-host; repeatable); deny wins")
	fs.StringVar(&p.Proxy, "proxy", "", "the world's upstream proxy, "+guard.UpstreamForms+": everything the world loads leaves through it, "+
		"other worlds' traffic does not; never shown with its credentials")
	fs.Var(&p.Files, "allow-file", "with a policy or a proxy: a folder besides the world's own whose files its clients may hand its pages (repeatable); "+
		"a guarded world reaches no other file of yours")
	fs.BoolVar(&p.Replace, "replace", false, "replace the policy a named world keeps (open or not) with the one given; without it another policy is refused")
}

// PolicyNames are the policy's flags, for the refusals.
const PolicyNames = "--allow-host, --deny-host, --proxy, --allow-file and --replace"

// Given says a policy, an upstream proxy, folders or replace were asked
// for.
func (p *Policy) Given() bool {
	return len(p.Allow) > 0 || len(p.Deny) > 0 || p.Proxy != "" || len(p.Files) > 0 || p.Replace
}

// Request checks every pattern, the proxy's URL and the folders: the
// policy to send (the folders absolute: ~ and relative paths resolved
// here, each a directory that exists), or an error naming each pattern it
// cannot read and what is wrong with the URL (never the URL: it may hold a
// password) or a folder.
func (p *Policy) Request() (worldapi.Policy, error) {
	req := worldapi.Policy{AllowHosts: p.Allow, DenyHosts: p.Deny, Proxy: strings.TrimSpace(p.Proxy)}
	guarded := len(p.Allow) > 0 || len(p.Deny) > 0 || req.Proxy != ""
	switch {
	case len(p.Files) > 0 && !guarded:
		return req, errors.New("--allow-file needs --allow-host, --deny-host or --proxy: a world without a guard already reaches every file of yours")
	case p.Replace && !guarded:
		return req, errors.New("--replace replaces a kept world's network policy with the one given: give --allow-host, --deny-host or --proxy with it")
	}
	files, err := worlds.Folders("--allow-file", p.Files)
	if err != nil {
		return req, err
	}
	req.AllowFiles = files
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

// FileList is --allow-file: repeatable, one folder each (a path may hold a
// comma). Command line only, as the host lists.
type FileList []string

func (l *FileList) String() string { return strings.Join(*l, ",") }

func (l *FileList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

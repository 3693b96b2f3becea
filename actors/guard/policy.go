package guard

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Policy is a world's network policy: the hosts it may reach. Deny wins;
// an empty Allow allows all but the denied. Private addresses (loopback,
// private ranges, link-local, cloud metadata) are reached only when an
// Allow pattern names the host, also when a name resolves to one. A
// Policy is never changed once made: a world's new policy is a new value.
type Policy struct {
	Allow []Pattern
	Deny  []Pattern
}

// ParsePolicy reads the allow and deny lists; an error names every
// pattern it cannot read.
func ParsePolicy(allow, deny []string) (*Policy, error) {
	p := &Policy{}
	var errs []error
	for _, s := range allow {
		pat, err := ParsePattern(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("allow: %w", err))
			continue
		}
		p.Allow = append(p.Allow, pat)
	}
	for _, s := range deny {
		pat, err := ParsePattern(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("deny: %w", err))
			continue
		}
		p.Deny = append(p.Deny, pat)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// A nil *Policy is a world with no policy, open: every host is allowed,
// private addresses too (only a policy makes them opt-in). A world with
// an upstream proxy alone has such a guard.

// AllowHosts and DenyHosts are the lists as they were written.
func (p *Policy) AllowHosts() []string {
	if p == nil {
		return nil
	}
	return texts(p.Allow)
}

// DenyHosts: see AllowHosts.
func (p *Policy) DenyHosts() []string {
	if p == nil {
		return nil
	}
	return texts(p.Deny)
}

func texts(ps []Pattern) []string {
	out := make([]string, 0, len(ps))
	for _, pat := range ps {
		out = append(out, pat.text)
	}
	return out
}

// Verdict is what the policy says of a host by its name, before it is
// resolved.
type Verdict struct {
	Allowed bool
	// Named: an Allow pattern names the host, so its private addresses
	// may be reached.
	Named  bool
	Reason string // why it is denied
}

// ByName judges a request's host (normalised) and port.
func (p *Policy) ByName(host string, port int) Verdict {
	if p == nil {
		return Verdict{Allowed: true, Named: true} // open: private addresses too
	}
	for _, pat := range p.Deny {
		if pat.matchName(host, port) {
			return Verdict{Reason: "denied by " + pat.text}
		}
	}
	for _, pat := range p.Allow {
		if pat.matchName(host, port) {
			return Verdict{Allowed: true, Named: true}
		}
	}
	if len(p.Allow) > 0 {
		return Verdict{Reason: "not in the allowed hosts"}
	}
	return Verdict{Allowed: true}
}

// ByAddress judges one address a host resolved to, given its verdict by
// name: a denied address pattern wins, and a private address needs the
// host named by an Allow pattern.
func (p *Policy) ByAddress(v Verdict, ip netip.Addr, port int) (bool, string) {
	if p == nil {
		return true, ""
	}
	ip = ip.Unmap()
	for _, pat := range p.Deny {
		if pat.matchIP(ip, port) {
			return false, "its address is denied by " + pat.text
		}
	}
	if Private(ip) && !v.Named {
		return false, "a private address (" + ip.String() + ") needs the host in the allowed hosts"
	}
	return true, ""
}

// cgnat is 100.64.0.0/10 (carrier-grade NAT), not covered by IsPrivate.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Private says an address is not on the public internet: loopback,
// private ranges, link-local (169.254.169.254, cloud metadata, among
// them), unspecified, multicast, CGNAT, and IPv4 written inside IPv6.
func Private(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.Is6() && (ip.Is4In6() || strings.HasPrefix(ip.String(), "64:ff9b:")) {
		return true // NAT64 or a mapped address: may lead anywhere
	}
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip)
}

// Empty says the policy restricts nothing by name (private addresses
// still need naming).
func (p *Policy) Empty() bool { return p == nil || len(p.Allow) == 0 && len(p.Deny) == 0 }

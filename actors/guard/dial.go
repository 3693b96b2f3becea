package guard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// Resolver turns a host name into addresses (net.DefaultResolver; a
// test's stand-in).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrDenied is a request the world's policy does not allow.
var ErrDenied = errors.New("denied by the world's network policy")

// DeniedError says which host was denied and why.
type DeniedError struct {
	Host   string // host:port as the browser asked
	Reason string
}

func (e *DeniedError) Error() string { return fmt.Sprintf("%s: %s %s", ErrDenied, e.Host, e.Reason) }

// Unwrap lets errors.Is find ErrDenied.
func (e *DeniedError) Unwrap() error { return ErrDenied }

// dial connects to hostport for a request of the world once the policy
// allows it: by name first, then each address the name resolves to, once;
// the connection goes to the very address that was checked, so a name
// that resolves differently a moment later (DNS rebinding) changes
// nothing.
func (p *Proxy) dial(ctx context.Context, hostport string, defaultPort int) (net.Conn, error) {
	host, port, err := splitHostPort(hostport, defaultPort)
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", hostport, err)
	}
	hostport = hostPort(host, port) // as the counts and the logs name it
	pol := p.policy.Load()
	v := pol.ByName(host, port)
	if !v.Allowed {
		return nil, &DeniedError{Host: hostport, Reason: v.Reason}
	}
	if up := p.upstream.Load(); up != nil {
		if err := p.judgeThrough(ctx, pol, v, host, port); err != nil {
			return nil, err
		}
		return up.dialThrough(ctx, hostport)
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else if addrs, err = p.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, fmt.Errorf("resolving %s: %w", host, err)
	}
	var reason string
	var lastErr error
	for _, ip := range addrs {
		ok, why := pol.ByAddress(v, ip, port)
		if !ok {
			reason = why
			continue
		}
		d := net.Dialer{}
		conn, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	if lastErr != nil {
		return nil, fmt.Errorf("connecting to %s: %w", hostport, lastErr)
	}
	if reason == "" {
		reason = "it resolved to no address"
	}
	return nil, &DeniedError{Host: hostport, Reason: reason}
}

// judgeThrough judges the addresses of a host whose request goes on
// through the upstream proxy, which resolves the name itself (it may see
// names and answers this machine does not: that is often why it is
// there). With a policy, the name's resolution here, when it succeeds,
// must be allowed whole: the guard cannot choose which of the addresses
// the upstream connects to. A name that does not resolve here is passed on,
// judged by name alone. Without a policy there is nothing to judge.
func (p *Proxy) judgeThrough(ctx context.Context, pol *Policy, v Verdict, host string, port int) error {
	if pol == nil {
		return nil
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else if addrs, err = p.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil
	}
	for _, ip := range addrs {
		if ok, why := pol.ByAddress(v, ip, port); !ok {
			return &DeniedError{Host: hostPort(host, port), Reason: why}
		}
	}
	return nil
}

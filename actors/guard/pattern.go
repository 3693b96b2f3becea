// Package guard is a world's network policy and the filtering forward
// proxy that enforces it: a listener of cdpvisor's own on loopback that a
// world's browser context is made with (Target.createBrowserContext
// {proxyServer}), so every request the world's pages, workers and
// websockets make passes it, whatever client drives them.
package guard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// ErrBadPattern is a host pattern the policy cannot read.
var ErrBadPattern = errors.New("bad host pattern")

// Pattern is one host pattern of a policy: `example.com` (that host),
// `*.example.com` (its subdomains, not itself), an IP address
// (`127.0.0.1`, `[::1]`), each with an optional `:PORT`.
type Pattern struct {
	text     string
	host     string     // lower case, no trailing dot; for a wildcard the suffix after "*."
	wildcard bool       // *.host: any subdomain of host
	ip       netip.Addr // valid when the pattern is an address
	port     int        // 0: any port
}

func (p Pattern) String() string { return p.text }

// ParsePattern reads one host pattern.
func ParsePattern(s string) (Pattern, error) {
	bad := func(why string) (Pattern, error) {
		return Pattern{}, fmt.Errorf("%w %q: %s", ErrBadPattern, s, why)
	}
	text := strings.TrimSpace(s)
	if text == "" {
		return bad("empty")
	}
	if strings.Contains(text, "://") || strings.ContainsAny(text, "/?#@ \t") {
		return bad("a pattern is a host with an optional :PORT (example.com, *.example.com, 127.0.0.1:8080, [::1]:8080), not a URL")
	}
	p := Pattern{text: text}
	host := text
	switch {
	case strings.HasPrefix(text, "["):
		end := strings.Index(text, "]")
		if end < 0 {
			return bad("an IPv6 address is written [::1] or [::1]:PORT")
		}
		host = text[1:end]
		rest := text[end+1:]
		if rest != "" {
			port, ok := strings.CutPrefix(rest, ":")
			if !ok {
				return bad("an IPv6 address is written [::1] or [::1]:PORT")
			}
			n, err := parsePort(port)
			if err != nil {
				return bad(err.Error())
			}
			p.port = n
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() {
			return bad("not an IPv6 address between [ ]")
		}
		p.ip = ip.Unmap()
		p.host = p.ip.String()
		return p, nil
	case strings.Count(text, ":") > 1:
		return bad("write an IPv6 address between [ ], as [::1]:8080")
	case strings.Contains(text, ":"):
		h, port, _ := strings.Cut(text, ":")
		n, err := parsePort(port)
		if err != nil {
			return bad(err.Error())
		}
		host, p.port = h, n
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		p.ip = ip.Unmap()
		p.host = p.ip.String()
		return p, nil
	}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		p.wildcard, host = true, rest
	}
	if err := checkName(host); err != nil {
		return bad(err.Error())
	}
	p.host = host
	return p, nil
}

func parsePort(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q is not a number from 1 to 65535", s)
	}
	return n, nil
}

// checkName accepts a DNS name of letters, digits, hyphens and
// underscores: what a browser puts in a request's host (IDN in punycode).
func checkName(host string) error {
	if host == "" || len(host) > 253 {
		return errors.New("no host name")
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return errors.New("an empty or overlong label")
		}
		for _, c := range label {
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			case c == '*':
				return errors.New("* stands only first, as in *.example.com")
			case c > 127:
				return errors.New("write an international name in punycode (xn--…), as the browser sends it")
			default:
				return fmt.Errorf("%q is not allowed in a host name", c)
			}
		}
	}
	return nil
}

// matchName says the pattern matches a request's host (as the browser
// sent it, lower case) and port.
func (p Pattern) matchName(host string, port int) bool {
	if p.port != 0 && p.port != port {
		return false
	}
	if p.ip.IsValid() {
		ip, err := netip.ParseAddr(host)
		return err == nil && ip.Unmap() == p.ip
	}
	if p.wildcard {
		return strings.HasSuffix(host, "."+p.host)
	}
	return host == p.host
}

// matchIP says an address pattern matches an address the host resolved to.
func (p Pattern) matchIP(ip netip.Addr, port int) bool {
	return p.ip.IsValid() && (p.port == 0 || p.port == port) && ip.Unmap() == p.ip
}

// normalHost is a request's host as patterns read it: lower case, no
// trailing dot, an IPv6 address without brackets in its canonical form.
func normalHost(host string) string {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().String()
	}
	return host
}

// splitHostPort reads "host:port", defaulting the port.
func splitHostPort(hostport string, defaultPort int) (string, int, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		if strings.Contains(err.Error(), "missing port") {
			return normalHost(hostport), defaultPort, nil
		}
		return "", 0, err
	}
	n, err := parsePort(port)
	if err != nil {
		return "", 0, err
	}
	return normalHost(host), n, nil
}

// hostPort is host:port as the counts and logs name a request's host.
func hostPort(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }

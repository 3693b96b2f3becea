package guard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrBadUpstream is an upstream proxy URL that cannot be used as given.
var ErrBadUpstream = errors.New("not an upstream proxy URL")

// ErrUpstreamUnreachable is an upstream proxy that does not accept a
// connection.
var ErrUpstreamUnreachable = errors.New("the upstream proxy cannot be reached")

// ErrUpstreamRefused is an upstream proxy that refused a request of the
// world's (its credentials, or the target).
var ErrUpstreamRefused = errors.New("the upstream proxy refused")

// UpstreamForms are the URLs an upstream proxy is given as.
const UpstreamForms = "http://[user:pass@]host:port or socks5://[user:pass@]host:port"

// Upstream is a world's upstream proxy: the guard sends the world's
// traffic on through it. Its credentials never leave it but to the
// proxy: String and Redacted hide them, and its errors never hold them.
type Upstream struct {
	scheme   string // "http" or "socks5"
	hostport string // host:port, as given
	user     string
	pass     string
	hasAuth  bool
}

// ParseUpstream reads an upstream proxy URL (UpstreamForms). Its errors
// never repeat the URL: it may hold a password.
func ParseUpstream(s string) (*Upstream, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		return nil, fmt.Errorf("%w: it has no scheme; want %s", ErrBadUpstream, UpstreamForms)
	}
	u, err := url.Parse(s)
	if err != nil {
		// url's own error quotes the URL whole, password and all.
		return nil, fmt.Errorf("%w: it cannot be read as a URL; want %s", ErrBadUpstream, UpstreamForms)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "http" && scheme != "socks5":
		if u.Scheme == "" {
			return nil, fmt.Errorf("%w: it has no scheme; want %s", ErrBadUpstream, UpstreamForms)
		}
		return nil, fmt.Errorf("%w: scheme %q is not supported; want %s", ErrBadUpstream, u.Scheme, UpstreamForms)
	case u.Opaque != "" || u.Host == "":
		return nil, fmt.Errorf("%w: it names no host; want %s", ErrBadUpstream, UpstreamForms)
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%w: a proxy has no path, query or fragment; want %s", ErrBadUpstream, UpstreamForms)
	}
	host, portText, err := net.SplitHostPort(u.Host)
	if err == nil && host == "" {
		return nil, fmt.Errorf("%w: it names no host; want %s", ErrBadUpstream, UpstreamForms)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s has no port; want %s", ErrBadUpstream, u.Hostname(), UpstreamForms)
	}
	if port, err := strconv.Atoi(portText); err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("%w: port %q of %s is not 1-65535", ErrBadUpstream, portText, host)
	}
	up := &Upstream{scheme: scheme, hostport: strings.ToLower(u.Host)} // as the HTTP transport names it when it dials
	if u.User != nil {
		up.hasAuth = true
		up.user = u.User.Username()
		up.pass, _ = u.User.Password()
		if scheme == "socks5" && (len(up.user) > 255 || len(up.pass) > 255) {
			return nil, fmt.Errorf("%w: a SOCKS5 user name or password is at most 255 bytes", ErrBadUpstream)
		}
	}
	return up, nil
}

// Scheme is "http" or "socks5".
func (u *Upstream) Scheme() string { return u.scheme }

// Addr is the proxy's host:port.
func (u *Upstream) Addr() string { return u.hostport }

// Redacted is the URL with its credentials, user name too, replaced:
// "http://***@host:port" (a user name often carries an account or a
// key). What logs, lists and answers show.
func (u *Upstream) Redacted() string {
	if u == nil {
		return ""
	}
	if u.hasAuth {
		return u.scheme + "://***@" + u.hostport
	}
	return u.scheme + "://" + u.hostport
}

// String is Redacted: an Upstream printed by mistake shows no secret.
func (u *Upstream) String() string { return u.Redacted() }

// WithCredentials is the proxy's URL, credentials and all: for the file a
// kept world's policy is saved in (0600, actors/profiles) alone, never a
// log, a list or an error.
func (u *Upstream) WithCredentials() string {
	if u == nil {
		return ""
	}
	return u.url().String()
}

// url is the proxy's URL with its credentials, for the HTTP transport's
// Proxy and the kept policy only.
func (u *Upstream) url() *url.URL {
	out := &url.URL{Scheme: u.scheme, Host: u.hostport}
	if u.hasAuth {
		out.User = url.UserPassword(u.user, u.pass)
	}
	return out
}

// checkTimeout bounds the check made at a world's making: a proxy that
// does not answer that fast is taken as unreachable.
const checkTimeout = 3 * time.Second

// Check connects to the proxy and hangs up: an unreachable proxy is
// refused at the world's making, naming it (without its credentials).
func (u *Upstream) Check(ctx context.Context) error {
	d := net.Dialer{Timeout: checkTimeout}
	conn, err := d.DialContext(ctx, "tcp", u.hostport)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrUpstreamUnreachable, u.Redacted(), err)
	}
	return conn.Close()
}

// scrub removes the credentials from an error's text (a net/http error
// could hold the proxy's URL): what the guard logs and answers.
func (u *Upstream) scrub(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if u == nil || !u.hasAuth {
		return s
	}
	for _, secret := range []string{u.pass, url.QueryEscape(u.pass), url.PathEscape(u.pass), u.user} {
		if len(secret) >= 3 { // a very short one would blank out common text; it is no stronger for it
			s = strings.ReplaceAll(s, secret, "***")
		}
	}
	return s
}

// viaHTTP is the upstream when it is an HTTP proxy: plain HTTP requests
// go to it in absolute form (as a browser would send them to it), not
// through a tunnel, which many proxies allow only to port 443.
func (p *Proxy) viaHTTP() *Upstream {
	if up := p.upstream.Load(); up != nil && up.scheme == "http" {
		return up
	}
	return nil
}

// httpUpstream is the transport's Proxy: the HTTP upstream's URL, with its
// credentials (sent as Proxy-Authorization), or none.
func (p *Proxy) httpUpstream(*http.Request) (*url.URL, error) {
	if up := p.viaHTTP(); up != nil {
		return up.url(), nil
	}
	return nil, nil
}

// upstreamAnswer turns an HTTP upstream's 407 into a failed request: passed
// on, the browser would take the guard for a proxy asking it to sign in.
func (p *Proxy) upstreamAnswer(resp *http.Response) error {
	if up := p.viaHTTP(); up != nil && resp.StatusCode == http.StatusProxyAuthRequired {
		return fmt.Errorf("%w: %s answered %s: its credentials are missing or wrong", ErrUpstreamRefused, up.Redacted(), resp.Status)
	}
	return nil
}

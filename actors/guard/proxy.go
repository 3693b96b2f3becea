package guard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// Spec configures a Proxy.
type Spec struct {
	World string // whose it is, for the logs
	// Policy is what the world may reach; nil: open (a world with an
	// upstream proxy alone), private addresses too.
	Policy *Policy
	// Upstream is the proxy the world's traffic leaves through; nil: the
	// guard connects to each host itself.
	Upstream *Upstream
	// Addr is where to listen: "127.0.0.1:PORT", port 0 for any. Loopback
	// only: the proxy is the browser's, on this machine.
	Addr string
	// Resolver resolves host names; nil: net.DefaultResolver.
	Resolver Resolver
	// OnHost, when set, hears a host's counts when they are news (its
	// first reach, its first denial, and each power of ten of either): the
	// world's journal. Called on the request's goroutine: it must not wait.
	OnHost func(host string, c HostCount)
	Log    zerolog.Logger
}

// dialTimeout bounds a connection to an allowed host, as a browser's own
// would give up.
const dialTimeout = 30 * time.Second

// Proxy is one world's filtering forward proxy: HTTP CONNECT (https, wss,
// ws: Chromium tunnels websockets) and plain HTTP requests in absolute
// form. Its goroutines are its own: Close stops them all and waits.
type Proxy struct {
	world    string
	policy   atomic.Pointer[Policy]
	upstream atomic.Pointer[Upstream]
	resolver Resolver
	log      zerolog.Logger
	ln       net.Listener
	srv      *http.Server
	rp       *httputil.ReverseProxy
	tr       *http.Transport
	served   chan struct{}
	counts   counts

	// The requests in progress (tunnels are hijacked: the server no
	// longer tracks their connections), closed and waited for by Close.
	mu      sync.Mutex
	closed  bool
	tunnels map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// Start listens at spec.Addr and serves until Close.
func Start(spec Spec) (*Proxy, error) {
	addr := spec.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("opening the network guard of world %s: %w", spec.World, err)
	}
	p := &Proxy{world: spec.World, resolver: spec.Resolver, log: spec.Log, ln: ln, served: make(chan struct{}),
		tunnels: map[net.Conn]struct{}{}, counts: counts{m: map[string]*HostCount{}, onHost: spec.OnHost}}
	if p.resolver == nil {
		p.resolver = net.DefaultResolver
	}
	p.policy.Store(spec.Policy)
	p.upstream.Store(spec.Upstream)
	p.tr = &http.Transport{
		// Never the environment's HTTP_PROXY: the world's own upstream, or none.
		Proxy: p.httpUpstream,
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			if up := p.viaHTTP(); up != nil && strings.EqualFold(addr, up.hostport) {
				var d net.Dialer // the upstream itself: the target was judged in serve
				return d.DialContext(ctx, "tcp", addr)
			}
			return p.dial(ctx, addr, 80)
		},
		MaxIdleConnsPerHost: 6,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true, // the browser's Accept-Encoding passes as it asked
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        func(pr *httputil.ProxyRequest) { pr.Out.Host = pr.In.Host },
		Transport:      p.tr,
		FlushInterval:  -1, // streams (server-sent events) flow as they come
		ErrorHandler:   p.failed,
		ModifyResponse: p.upstreamAnswer,
		ErrorLog:       nil,
	}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ReadHeaderTimeout: 30 * time.Second, ErrorLog: discardLog}
	go func() {
		defer close(p.served)
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// Addr is where the proxy listens, "127.0.0.1:PORT".
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Port is the port it listens on.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// URL is the proxy as a browser context's proxyServer.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Policy is the policy of the moment.
func (p *Proxy) Policy() *Policy { return p.policy.Load() }

// Upstream is the upstream proxy of the moment; nil: none.
func (p *Proxy) Upstream() *Upstream { return p.upstream.Load() }

// SetPolicy replaces the policy (nil: open) and the upstream (nil: none):
// every request from now on is judged by the one and sent through the
// other; idle connections made under the old ones are dropped.
func (p *Proxy) SetPolicy(pol *Policy, up *Upstream) {
	p.policy.Store(pol)
	p.upstream.Store(up)
	p.tr.CloseIdleConnections()
}

// Close stops listening, ends every request and tunnel in progress and
// waits for them.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	for c := range p.tunnels {
		_ = c.Close()
	}
	p.mu.Unlock()
	err := p.srv.Close()
	<-p.served
	p.wg.Wait()
	p.tr.CloseIdleConnections()
	return err
}

// begin counts a request in; false when the proxy is closing.
func (p *Proxy) begin() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.wg.Add(1)
	return true
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	if !p.begin() {
		http.Error(w, "cdpvisor: the world's network guard is closing", http.StatusServiceUnavailable)
		return
	}
	defer p.wg.Done()
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "cdpvisor: this is a world's network guard: a proxy for its browser context", http.StatusBadRequest)
		return
	}
	// Judged by name before the transport may reuse a connection.
	host, port, err := splitHostPort(r.URL.Host, 80)
	if err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
		return
	}
	pol := p.policy.Load()
	v := pol.ByName(host, port)
	if !v.Allowed {
		p.deny(w, &DeniedError{Host: hostPort(host, port), Reason: v.Reason})
		return
	}
	// Through an HTTP upstream the transport connects to the upstream, not
	// the host: the host's addresses are judged here.
	if p.viaHTTP() != nil {
		if err := p.judgeThrough(r.Context(), pol, v, host, port); err != nil {
			var denied *DeniedError
			if errors.As(err, &denied) {
				p.deny(w, denied)
				return
			}
			w.WriteHeader(http.StatusBadGateway)
			return
		}
	}
	p.counts.reached(hostPort(host, port))
	p.rp.ServeHTTP(w, r)
}

// failed answers a plain HTTP request that could not be forwarded.
func (p *Proxy) failed(w http.ResponseWriter, r *http.Request, err error) {
	var denied *DeniedError
	if errors.As(err, &denied) {
		p.deny(w, denied)
		return
	}
	p.log.Debug().Str("world", p.world).Str("host", r.URL.Host).Str("error", p.upstream.Load().scrub(err)).Msg("guard: a request failed upstream")
	w.WriteHeader(http.StatusBadGateway)
}

// deny refuses a plain HTTP request by closing its connection without an
// answer: the page sees a failed request (a network error), as it would
// a blocked one, never a page of the proxy's it could mistake for the
// site's.
func (p *Proxy) deny(w http.ResponseWriter, e *DeniedError) {
	p.denied(e)
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	http.Error(w, "cdpvisor: "+e.Error(), http.StatusForbidden)
}

func (p *Proxy) denied(e *DeniedError) {
	level := zerolog.DebugLevel
	if p.counts.denied(e.Host) == 1 {
		level = zerolog.InfoLevel // a host's first denial is news; the rest are counted
	}
	// The host alone: a path or query may hold secrets.
	p.log.WithLevel(level).Str("world", p.world).Str("host", e.Host).Str("reason", e.Reason).Msg("guard: request denied")
}

// tunnel answers CONNECT: the browser's https and websocket traffic.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), dialTimeout)
	up, err := p.dial(ctx, r.Host, 443)
	cancel()
	if err != nil {
		var denied *DeniedError
		if errors.As(err, &denied) {
			p.denied(denied)
			http.Error(w, "cdpvisor: "+denied.Error(), http.StatusForbidden)
			return
		}
		msg := p.upstream.Load().scrub(err)
		p.log.Debug().Str("world", p.world).Str("host", r.Host).Str("error", msg).Msg("guard: a tunnel failed upstream")
		http.Error(w, "cdpvisor: "+msg, http.StatusBadGateway)
		return
	}
	if host, port, err := splitHostPort(r.Host, 443); err == nil {
		p.counts.reached(hostPort(host, port))
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		http.Error(w, "cdpvisor: no tunnel over this connection", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if !p.track(down, up) {
		return
	}
	_ = down.SetDeadline(time.Time{}) // the server's header deadline is not the tunnel's
	defer p.untrack(down, up)
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		return
	}
	// What the browser sent after its CONNECT and the server read already.
	if n := buf.Reader.Buffered(); n > 0 {
		head, _ := buf.Reader.Peek(n)
		if _, err := up.Write(head); err != nil {
			return
		}
	}
	done := make(chan struct{})
	go func() { // owned by this tunnel: waited for below
		defer close(done)
		_, _ = io.Copy(down, up)
		closeWrite(down)
	}()
	_, _ = io.Copy(up, down)
	closeWrite(up)
	<-done
}

// track records a tunnel's connections for Close; false (both closed)
// when the proxy is closing.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			_ = c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.tunnels[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		_ = c.Close()
		delete(p.tunnels, c)
	}
}

// closeWrite half-closes a TCP connection so the other side sees the end
// of this direction while the other still flows.
func closeWrite(c net.Conn) {
	if hc, ok := c.(interface{ CloseWrite() error }); ok { // a TCP connection, or one through an upstream
		_ = hc.CloseWrite()
		return
	}
	_ = c.Close()
}

// Package proxy is the ProxyActor: an instance's stable loopback endpoint,
// its HTTP surface (/json/*, health) and its websockets, each relayed by a
// RelayActor.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/extensions"
	"github.com/cdpvisor/cdpvisor/actors/proxy/peer"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/state"
	"github.com/cdpvisor/cdpvisor/transport"
	"github.com/rs/zerolog"
)

// Spec configures a ProxyActor: an instance's stable endpoint, what it
// serves there and whom it lets in.
type Spec struct {
	// What it serves: an instance's browser (Status says how it is, for
	// the health answer; nil: not said), over CDP or, BiDi, a Firefox's
	// WebDriver BiDi at BiDiPath (fixed at creation); the parts of the
	// browser served apart at /context/NAME (Scopes: the instance's
	// worlds; nil: none here); the features' HTTP surfaces (Mounts: the
	// live view, the metrics, …); the book of the extensions its clients
	// loaded, whose websockets (Origin chrome-extension://ID) it accepts
	// (nil: none are); the coordinator's health report for /health (nil:
	// this instance's alone) and whether it takes new clients (Ready,
	// /health/ready; nil: always).
	Instance   string
	Browser    relay.BrowserSource
	Status     StatusSource
	BiDi       bool
	Scopes     Scopes
	Mounts     []Mount
	Extensions *extensions.Actor
	Report     func(ctx context.Context) state.Report
	Ready      func(ctx context.Context) (ready bool, why string)

	// Whom it lets in, besides its owner (the peer check): websocket
	// Origins besides the endpoint's own; a Token, asked of every request
	// but the probes when set (an endpoint beyond loopback, serve
	// --listen: Authorization: Bearer, or ?token= for clients that cannot
	// set headers; never logged); the Host names it answers under besides
	// loopback ones (a fleet's service name).
	AllowOrigins []string
	Token        string
	AllowHosts   []string

	// Its relays: the largest CDP message either way (0 =
	// transport.MaxMessageSize); OnBrowserClose, when set, given to every
	// relay (see relay.Spec); WatchBrowser, when set, wraps each relay's
	// browser connection (the DownloadsActor hears the download behaviour
	// clients set themselves); Traffic counts what they forward; OnClients
	// hears their number whenever it changes (the BrowserActor's idle
	// stop, the metrics).
	MaxMessage     int64
	OnBrowserClose func()
	WatchBrowser   func(transport.Conn) transport.Conn
	Traffic        *relay.Traffic
	OnClients      func(ctx context.Context, n int)

	// The edge: the fixes of the errors answered over HTTP in its words
	// (the command line's for serve; nil: remedy.Plain), and its log.
	Words remedy.Words
	Log   zerolog.Logger
}

// StatusSource says how a browser is (a BrowserActor).
type StatusSource interface {
	Status(ctx context.Context) (browser.Status, error)
}

// Actor is the ProxyActor: it owns an instance's stable loopback listener and its HTTP
// surface. The listener is bound once, when the actor is made, and stays the
// same for the life of the process; browsers come and go behind it.
type Actor struct {
	spec     Spec
	listener net.Listener
	port     int
	mailbox  chan request
	stopped  chan struct{} // closed when shutdown is over: nobody reads the mailbox after
	client   *http.Client  // to the browser's /json surface
}

// Listen binds the stable endpoint on 127.0.0.1:port (0 = any free port).
func Listen(port int) (net.Listener, error) { return ListenOn("127.0.0.1", port) }

// ListenOn binds the stable endpoint on host:port (beyond loopback only for
// an endpoint that asks for a token).
func ListenOn(host string, port int) (net.Listener, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, remedy.With(fmt.Errorf("port %d on %s is already in use: %w", port, host, err),
				remedy.Change(remedy.Port), remedy.Say("stop what listens there"))
		}
		return nil, remedy.With(fmt.Errorf("listen on %s:%d: %w", host, port, err), remedy.Change(remedy.Port))
	}
	return l, nil
}

// New makes a proxy serving on l, which it owns from now on. The endpoint
// serves the user this process runs as only (peer.OwnerOnly), or, with a
// token, whoever gives it: every listener cdpvisor serves on comes through
// here.
func New(spec Spec, l net.Listener) *Actor {
	if spec.Token == "" {
		// A token gates every request itself (a fleet's endpoint, reached
		// by a kubelet or a port-forward as another user): no peer check.
		l = peer.OwnerOnly(l, spec.Log)
	}
	return &Actor{
		spec:     spec,
		listener: l,
		port:     l.Addr().(*net.TCPAddr).Port,
		mailbox:  make(chan request),
		stopped:  make(chan struct{}),
		client:   &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}},
	}
}

func (p *Actor) String() string { return "proxy " + p.spec.Instance }

// Port is the stable endpoint's port.
func (p *Actor) Port() int { return p.port }

// Endpoint is the stable HTTP endpoint, http://127.0.0.1:PORT.
func (p *Actor) Endpoint() string { return EndpointOf(p.listener) }

// EndpointOf is the endpoint that will serve on l, before it is made.
func EndpointOf(l net.Listener) string {
	return fmt.Sprintf("http://127.0.0.1:%d", l.Addr().(*net.TCPAddr).Port)
}

// BrowserWS is the stable browser websocket URL: it works across relaunches
// (a Firefox instance's is its BiDi socket).
func (p *Actor) BrowserWS() string {
	if p.spec.BiDi {
		return fmt.Sprintf("ws://127.0.0.1:%d%s", p.port, BiDiPath)
	}
	return fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser", p.port)
}

// request is what the actor's mailbox carries: a closed set, the types
// below and no others, each with its case in handle.
type request interface{ isProxyRequest() }

func (relayOpened) isProxyRequest()  {}
func (relayClosed) isProxyRequest()  {}
func (closeClients) isProxyRequest() {}
func (clientCount) isProxyRequest()  {}

// Messages a Actor hears.
type (
	relayOpened  struct{ relay *relay.Actor }
	relayClosed  struct{ relay *relay.Actor }
	closeClients struct {
		code   int
		reason string
		reply  chan int
	}
	clientCount struct{ reply chan int }
)

// CloseClients closes every client websocket with code (1012 on a restart,
// so clients reconnect) and returns how many were closed.
func (p *Actor) CloseClients(ctx context.Context, code int, reason string) (int, error) {
	return actor.Ask(ctx, p.mailbox, func(r chan int) request { return closeClients{code: code, reason: reason, reply: r} })
}

// Clients returns how many client websockets are connected.
func (p *Actor) Clients(ctx context.Context) (int, error) {
	return actor.Ask(ctx, p.mailbox, func(r chan int) request { return clientCount{reply: r} })
}

// relayShutdownWait bounds how long shutdown waits for relays to end.
const relayShutdownWait = 5 * time.Second

// Serve answers HTTP and websocket requests until ctx is done, then closes
// the listener and every client connection.
func (p *Actor) Serve(ctx context.Context) error {
	srv := &http.Server{
		Handler:           p,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          actor.StdLogger(p.spec.Log),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(keepOpen{p.listener}) }()
	relays := map[*relay.Actor]struct{}{}
	for {
		select {
		case m := <-p.mailbox:
			p.handle(ctx, m, relays)
		case err := <-served:
			return fmt.Errorf("endpoint stopped serving: %w", err)
		case <-ctx.Done():
			return p.shutdown(ctx, srv, served, relays)
		}
	}
}

func (p *Actor) handle(ctx context.Context, m request, relays map[*relay.Actor]struct{}) {
	switch m := m.(type) {
	case relayOpened:
		relays[m.relay] = struct{}{}
		p.tellClients(ctx, len(relays))
	case relayClosed:
		delete(relays, m.relay)
		p.tellClients(ctx, len(relays))
	case closeClients:
		for r := range relays {
			r.Close(m.code, m.reason)
		}
		m.reply <- len(relays)
	case clientCount:
		m.reply <- len(relays)
	default:
		actor.Unknown(p.spec.Log, p.String(), m)
	}
}

func (p *Actor) tellClients(ctx context.Context, n int) {
	if p.spec.OnClients != nil && ctx.Err() == nil {
		p.spec.OnClients(ctx, n)
	}
}

func (p *Actor) shutdown(ctx context.Context, srv *http.Server, served chan error, relays map[*relay.Actor]struct{}) error {
	sctx, cancel := context.WithTimeout(context.Background(), relayShutdownWait)
	defer cancel()
	defer close(p.stopped)
	p.listener.Close()     // the process is ending: release the port
	_ = srv.Shutdown(sctx) // plain requests finish
	<-served
	p.client.CloseIdleConnections()
	// Relays see the cancelled context and close their clients; wait for them.
	for len(relays) > 0 {
		select {
		case m := <-p.mailbox:
			p.handle(ctx, m, relays) // ctx is done: nobody is told of the count any more
		case <-sctx.Done():
			p.spec.Log.Warn().Int("relays", len(relays)).Msg("relays did not end in time")
			return nil
		}
	}
	return nil
}

// keepOpen keeps the stable listener open when http.Server stops for any
// reason but shutdown, so a restarted actor serves on the same port; only
// shutdown closes it.
type keepOpen struct{ net.Listener }

func (keepOpen) Close() error { return nil }

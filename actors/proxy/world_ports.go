package proxy

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/proxy/peer"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// A world's port: besides /context/NAME, every world of a loopback
// endpoint has a port of its own, http://127.0.0.1:WPORT, the world's
// endpoint with nothing to prefix, for the clients that keep only a host
// and a port (Puppeteer's browserURL, chromedriver's debuggerAddress,
// go-rod's ResolveURL). The WorldsActor decides when a world is made and
// closed and tells the proxy (worlds.News); the proxy's Serve goroutine
// opens and closes the world's listener, and remembers its number for the
// process's life, so a named world made again gets the same one.

// worldPort is one world's listener and its server, owned by Serve.
type worldPort struct {
	name   string
	port   int
	srv    *http.Server
	served chan error
}

// worldNewsRoom buffers the worlds' news so the WorldsActor rarely waits
// on the proxy.
const worldNewsRoom = 256

// worldPortsOn says this endpoint gives its worlds ports: a loopback one
// with worlds (under a token, beyond loopback, worlds keep the path form).
func (p *Actor) worldPortsOn() bool {
	return p.spec.Worlds != nil && !p.spec.BiDi && p.spec.Token == ""
}

// Messages about world ports, answered by Serve once it has taken the
// worlds' news sent before the question.
type (
	worldPortAsk  struct{ reply chan map[string]int }
	worldPortsRun struct {
		ctx   context.Context
		ports map[string]*worldPort
	}
)

// worldPorts answers the open worlds' ports, by name.
func (p *Actor) worldPorts(ctx context.Context) (map[string]int, error) {
	return actor.Ask(ctx, p.mailbox, func(r chan map[string]int) request { return worldPortAsk{reply: r} })
}

// followWorlds starts following the worlds' lifetimes and opens the ports
// of the worlds open now; false: ctx ended first.
func (p *Actor) followWorlds(ctx context.Context, run worldPortsRun) bool {
	if !p.worldPortsOn() {
		return true
	}
	open, err := p.spec.Worlds.Follow(ctx, p.worldNews)
	if err != nil {
		return false
	}
	for _, name := range open {
		p.openWorldPort(run, name)
	}
	return true
}

// onWorldNews opens or closes a world's port.
func (p *Actor) onWorldNews(run worldPortsRun, n worlds.News) {
	if n.Open {
		p.openWorldPort(run, n.Name)
	} else {
		p.closeWorldPort(run, n.Name)
	}
}

// takeWorldNews takes the news already sent, so a question asked after a
// world was made or closed is answered with it.
func (p *Actor) takeWorldNews(run worldPortsRun) {
	for {
		select {
		case n := <-p.worldNews:
			p.onWorldNews(run, n)
		default:
			return
		}
	}
}

// openWorldPort opens the port of the world called name: the number it had
// before in this process if it is free, else any free one.
func (p *Actor) openWorldPort(run worldPortsRun, name string) {
	if _, ok := run.ports[name]; ok {
		return
	}
	log := p.spec.Log.With().Str("world", name).Logger()
	want := p.portOf[name]
	l, err := Listen(want)
	if err != nil && want != 0 {
		// Never shared: the number went to another process meanwhile.
		log.Warn().Err(err).Int("port", want).Msgf("the port %d world %s had is taken by another process; it gets another", want, name)
		l, err = Listen(0)
	}
	if err != nil {
		log.Error().Err(err).Msg("world " + name + " gets no port of its own; it is served at " + p.WorldEndpoint(name) + " only")
		return
	}
	wp := &worldPort{name: name, port: l.Addr().(*net.TCPAddr).Port, served: make(chan error, 1)}
	p.portOf[name] = wp.port
	wp.srv = &http.Server{
		Handler:           worldPortHandler{p: p, name: name},
		BaseContext:       func(net.Listener) context.Context { return run.ctx },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          actor.StdLogger(log),
	}
	owned := peer.OwnerOnly(l, log) // the same owner-only check as the endpoint's
	go func() { wp.served <- wp.srv.Serve(owned) }()
	run.ports[name] = wp
	log.Info().Int("port", wp.port).Msgf("world %s is served at http://127.0.0.1:%d", name, wp.port)
}

// closeWorldPort closes the world's port: a connection is refused from now.
func (p *Actor) closeWorldPort(run worldPortsRun, name string) {
	wp, ok := run.ports[name]
	if !ok {
		return
	}
	delete(run.ports, name)
	_ = wp.srv.Close() // its listener, idle and plain connections; its websockets end with the world
	<-wp.served
	p.spec.Log.Debug().Str("world", name).Int("port", wp.port).Msg("the world's port is closed")
}

// closeWorldPorts closes every world's port, at shutdown.
func (p *Actor) closeWorldPorts(run worldPortsRun) {
	for name := range run.ports {
		p.closeWorldPort(run, name)
	}
}

// worldPortHandler serves a world's port: the world's whole CDP endpoint,
// every URL it hands out in the port form.
type worldPortHandler struct {
	p    *Actor
	name string
}

func (h worldPortHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.p.hostAllowed(r.Host) {
		http.Error(w, fmt.Sprintf("cdpvisor: refused: the Host header %q is not a loopback address; connect to %s", r.Host, "http://127.0.0.1:"+portOfHost(r)), http.StatusForbidden)
		h.p.spec.Log.Warn().Str("host", r.Host).Str("world", h.name).Str("path", r.URL.Path).Msg("refused a request with a Host not allowed")
		return
	}
	h.p.serveWorldRest(w, r, worldAt{name: h.name}, r.URL.Path)
}

// portOfHost is the port the request came to, for an answer.
func portOfHost(r *http.Request) string {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if t, ok := a.(*net.TCPAddr); ok {
			return fmt.Sprint(t.Port)
		}
	}
	return "PORT"
}

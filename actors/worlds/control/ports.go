package control

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/proxy"
	"github.com/cdpvisor/cdpvisor/actors/proxy/peer"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// A world's port: besides /context/NAME, every world of a loopback
// endpoint has a port of its own, http://127.0.0.1:WPORT, the world's
// endpoint with nothing to prefix, for the clients that keep only a host
// and a port (Puppeteer's browserURL, chromedriver's debuggerAddress,
// go-rod's ResolveURL). The WorldsActor decides when a world is made and
// closed and tells the Ports actor (worlds.News), which opens and closes
// the world's listener, served by the proxy as the world's scope, and
// remembers its number for the process's life, so a named world made
// again gets the same one.

// Ports is the actor that owns the worlds' ports of one endpoint.
type Ports struct {
	worlds  *worlds.Actor
	serve   func(name string) http.Handler
	pathOf  func(name string) string // a world's endpoint in the path form
	mailbox chan portAsk
	news    chan worlds.News
	// portOf remembers each world's port number for the process's life;
	// touched only by Serve's goroutine (across its restarts).
	portOf map[string]int
	log    zerolog.Logger
}

// portAsk asks the open worlds' ports, by name. It is the Ports actor's
// one request.
type portAsk struct{ reply chan map[string]int }

// newsRoom buffers the worlds' news so the WorldsActor rarely waits on
// the ports.
const newsRoom = 256

// Ports is the actor that gives the worlds their ports, each served by p
// as the world's scope; nil when worlds get none.
func (c *Control) Ports(p *proxy.Actor) *Ports {
	if c.portAsks == nil {
		return nil
	}
	return &Ports{worlds: c.spec.Worlds, serve: p.ScopeHandler, pathOf: c.PathEndpoint, mailbox: c.portAsks, news: make(chan worlds.News, newsRoom),
		portOf: map[string]int{}, log: c.spec.Log}
}

func (s *Ports) String() string { return "world ports" }

// ports answers the open worlds' ports, by name (none without ports).
func (c *Control) ports(ctx context.Context) (map[string]int, error) {
	if c.portAsks == nil {
		return nil, nil
	}
	return actor.Ask(ctx, c.portAsks, func(r chan map[string]int) portAsk { return portAsk{reply: r} })
}

// worldPort is one world's listener and its server, owned by Serve.
type worldPort struct {
	name   string
	port   int
	srv    *http.Server
	served chan error
}

// Serve follows the worlds' lifetimes, opening and closing their ports,
// until ctx is done; then it closes every port.
func (s *Ports) Serve(ctx context.Context) error {
	open := map[string]*worldPort{}
	defer s.closeAll(open)
	// Following ends with this Serve, however it ends.
	fctx, unfollow := context.WithCancel(ctx)
	defer unfollow()
	names, err := s.worlds.Follow(fctx, s.news)
	if err != nil {
		return ctx.Err()
	}
	for _, name := range names {
		s.openPort(ctx, open, name)
	}
	for {
		select {
		case m := <-s.mailbox:
			s.takeNews(ctx, open)
			ports := make(map[string]int, len(open))
			for name, wp := range open {
				ports[name] = wp.port
			}
			m.reply <- ports
		case n := <-s.news:
			s.onNews(ctx, open, n)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// onNews opens or closes a world's port.
func (s *Ports) onNews(ctx context.Context, open map[string]*worldPort, n worlds.News) {
	if n.Open {
		s.openPort(ctx, open, n.Name)
	} else {
		s.closePort(open, n.Name)
	}
}

// takeNews takes the news already sent, so a question asked after a world
// was made or closed is answered with it.
func (s *Ports) takeNews(ctx context.Context, open map[string]*worldPort) {
	for {
		select {
		case n := <-s.news:
			s.onNews(ctx, open, n)
		default:
			return
		}
	}
}

// openPort opens the port of the world called name: the number it had
// before in this process if it is free, else any free one.
func (s *Ports) openPort(ctx context.Context, open map[string]*worldPort, name string) {
	if _, ok := open[name]; ok {
		return
	}
	log := s.log.With().Str("world", name).Logger()
	want := s.portOf[name]
	l, err := proxy.Listen(want)
	if err != nil && want != 0 {
		// Never shared: the number went to another process meanwhile.
		log.Warn().Err(err).Int("port", want).Msgf("the port %d world %s had is taken by another process; it gets another", want, name)
		l, err = proxy.Listen(0)
	}
	if err != nil {
		log.Error().Err(err).Msg("world " + name + " gets no port of its own; it is served at " + s.pathOf(name) + " only")
		return
	}
	wp := &worldPort{name: name, port: l.Addr().(*net.TCPAddr).Port, served: make(chan error, 1)}
	s.portOf[name] = wp.port
	wp.srv = &http.Server{
		Handler:           s.serve(name),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          actor.StdLogger(log),
	}
	owned := peer.OwnerOnly(l, log) // the same owner-only check as the endpoint's
	go func() { wp.served <- wp.srv.Serve(owned) }()
	open[name] = wp
	log.Info().Int("port", wp.port).Msgf("world %s is served at http://127.0.0.1:%d", name, wp.port)
}

// closePort closes the world's port: a connection is refused from now.
func (s *Ports) closePort(open map[string]*worldPort, name string) {
	wp, ok := open[name]
	if !ok {
		return
	}
	delete(open, name)
	_ = wp.srv.Close() // its listener, idle and plain connections; its websockets end with the world
	<-wp.served
	s.log.Debug().Str("world", name).Int("port", wp.port).Msg("the world's port is closed")
}

// closeAll closes every world's port, at the end.
func (s *Ports) closeAll(open map[string]*worldPort) {
	for name := range open {
		s.closePort(open, name)
	}
}

package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/actors/remedy"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
	"github.com/cdpvisor/cdpvisor/transport"
)

type socketTarget int

const (
	browserTarget socketTarget = iota // /devtools/browser/…: whatever browser runs now
	pageTarget                        // /devtools/page/<id>: that target while it lives
	bidiTarget                        // /session: a Firefox's WebDriver BiDi socket while it lives
)

// BiDiPath is where the endpoint of a Firefox instance serves WebDriver
// BiDi, as Firefox itself does.
const BiDiPath = "/session"

var relayIDs atomic.Int64

// socket is a client websocket asked for: what it reaches, the browser's
// path of a page's, and the world it lives in ("": the whole browser).
type socket struct {
	target socketTarget
	path   string // /devtools/page/<id>
	world  string
}

// serveSocket relays a client websocket to the browser. The browser side is
// dialled before the client is upgraded, so failures are plain HTTP answers.
func (p *Actor) serveSocket(w http.ResponseWriter, r *http.Request, sock socket) {
	target := sock.target
	if !websocket.IsWebSocketUpgrade(r) {
		http.Error(w, "cdpvisor: "+r.URL.Path+" expects a websocket upgrade", http.StatusBadRequest)
		return
	}
	if _, err := transport.ChallengeKey(r.Header); err != nil {
		// Before anything launches; transport.Upgrade decides the same.
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusBadRequest)
		return
	}
	if origin := r.Header.Get("Origin"); !p.originAllowed(r) {
		refused := remedy.With(fmt.Errorf("refused: websocket Origin %q is not allowed", origin),
			remedy.Fix{Do: remedy.AtStart, Setting: remedy.AllowOrigin, Value: origin, Text: "to allow it"})
		http.Error(w, "cdpvisor: "+remedy.Explain(refused, p.spec.Words), http.StatusForbidden)
		p.spec.Log.Warn().Str("origin", origin).Msg("refused a websocket with a foreign Origin")
		return
	}
	if err := p.protocolMismatch(target); err != nil {
		http.Error(w, "cdpvisor: "+err.Error(), http.StatusNotFound)
		return
	}
	var link socketLink
	err := p.withBrowser(r.Context(), func(ep browser.Endpoint) (err error) {
		link, err = p.openSocket(r.Context(), sock, ep)
		return err
	})
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	world, worldContext, ep, browserConn, limit := link.world, link.worldContext, link.ep, link.conn, link.limit
	upgrader := websocket.Upgrader{
		ReadBufferSize:  transport.FrameBufferSize,
		WriteBufferSize: transport.FrameBufferSize,
		CheckOrigin:     p.originAllowed,
	}
	client, err := transport.Upgrade(&upgrader, w, r)
	if err != nil {
		browserConn.Close(websocket.CloseGoingAway, "") // the upgrader already answered the client
		return
	}
	spec := relay.Spec{
		ID: relayIDs.Add(1), Instance: p.spec.Instance,
		Client:  transport.NewWSConn(client, limit),
		Browser: p.watch(browserConn), Dial: p.dial, Endpoint: ep, Source: p.spec.Browser,
		Resilient: target == browserTarget || target == bidiTarget, BiDi: target == bidiTarget, MaxMessage: limit, OnBrowserClose: p.spec.OnBrowserClose, Traffic: p.spec.Traffic, Log: p.spec.Log,
	}
	if world != nil {
		spec.World, spec.WorldContext = world, worldContext
		for _, stageOf := range p.spec.Stages {
			if s := stageOf(r.Context(), world.Name(), spec.ID); s != nil {
				spec.Stages = append(spec.Stages, s)
			}
		}
	}
	if p.spec.Extensions != nil {
		spec.Extensions = p.spec.Extensions
	}
	rl := relay.New(spec)
	if actor.Send(r.Context(), p.mailbox, request(relayOpened{relay: rl})) != nil {
		rl.Close(websocket.CloseGoingAway, "cdpvisor is shutting down")
		browserConn.Close(websocket.CloseGoingAway, "")
		return
	}
	joined := world != nil && p.spec.Worlds.Joined(r.Context(), world, rl) == nil
	_ = rl.Serve(r.Context())
	if joined {
		// Before the proxy hears the relay ended: at shutdown the worlds
		// actor stops only after the proxy.
		p.spec.Worlds.Left(r.Context(), world, rl)
	}
	// Not bound to the request context: at shutdown it is already done, and
	// the proxy is waiting to hear that this relay ended.
	select {
	case p.mailbox <- relayClosed{relay: rl}:
	case <-p.stopped:
	}
}

// socketLink is the browser's end of a client socket, opened before the
// client is upgraded.
type socketLink struct {
	ep           browser.Endpoint
	conn         transport.Conn
	limit        int64
	world        *worlds.World // nil: the whole browser
	worldContext string
}

// openSocket opens the browser's end of sock in the browser at ep: the
// world's context first (and the page must be the world's), then the
// browser's socket.
func (p *Actor) openSocket(ctx context.Context, sock socket, ep browser.Endpoint) (socketLink, error) {
	link := socketLink{ep: ep, limit: p.spec.MaxMessage}
	if link.limit <= 0 {
		link.limit = transport.MaxMessageSize
	}
	if sock.world != "" {
		var err error
		if link.world, link.worldContext, err = p.openWorld(ctx, sock.world, ep); err != nil {
			return link, err
		}
		if sock.target == pageTarget {
			if err := p.worldHasTarget(ctx, link.world, ep, strings.TrimPrefix(sock.path, "/devtools/page/")); err != nil {
				return link, err
			}
		}
	}
	url := ep.WSURL
	if sock.target == pageTarget {
		url = "ws://" + ep.HostPort + sock.path
	}
	conn, err := ep.Dial(ctx, url, link.limit)
	if err != nil {
		if sock.target == bidiTarget {
			// A BiDi client has no recovery of its own: a Firefox that
			// refuses (one killed a moment ago, or one that still runs
			// but refused) is replaced once.
			return link, &goneError{err: err}
		}
		status := http.StatusBadGateway
		var de *transport.DialError
		if errors.As(err, &de) && de.Status >= 400 {
			status = de.Status
		}
		return link, &browserFailed{status: status, err: err}
	}
	link.conn = conn
	return link, nil
}

// protocolMismatch refuses, before anything launches, a socket the
// instance's browser does not serve: /session of a Chromium, /devtools/…
// of a Firefox.
func (p *Actor) protocolMismatch(target socketTarget) error {
	switch {
	case target == bidiTarget && !p.spec.BiDi:
		return fmt.Errorf("%s is the WebDriver BiDi socket of a Firefox instance; this endpoint runs a Chromium-family browser, which speaks CDP: connect to /devtools/browser", BiDiPath)
	case target != bidiTarget && p.spec.BiDi:
		return fmt.Errorf("this endpoint runs Firefox, which speaks WebDriver BiDi, not CDP: connect to %s", BiDiPath)
	}
	return nil
}

// watch wraps a relay's browser connection with Spec.WatchBrowser.
func (p *Actor) watch(c transport.Conn) transport.Conn {
	if p.spec.WatchBrowser == nil {
		return c
	}
	return p.spec.WatchBrowser(c)
}

// dial opens a relay's browser connection for a recovery.
func (p *Actor) dial(ctx context.Context, ep browser.Endpoint, limit int64) (transport.Conn, error) {
	c, err := relay.DialBrowser(ctx, ep, limit)
	if err != nil {
		return nil, err
	}
	return p.watch(c), nil
}

// originAllowed: the endpoint's own and the allowed Origins, and those of
// the extensions the instance's clients loaded into its running browser.
func (p *Actor) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if transport.OriginAllowed(origin, r.Host, p.spec.AllowOrigins) {
		return true
	}
	return p.spec.Extensions != nil && p.spec.Extensions.AllowsOrigin(r.Context(), origin)
}

package actors

import (
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/transport"
)

type socketTarget int

const (
	browserTarget socketTarget = iota // /devtools/browser/…: whatever browser runs now
	pageTarget                        // /devtools/page/<id>: that target while it lives
)

var relayIDs atomic.Int64

// serveSocket relays a client websocket to the browser. The browser side is
// dialled before the client is upgraded, so failures are plain HTTP answers.
func (p *ProxyActor) serveSocket(w http.ResponseWriter, r *http.Request, target socketTarget) {
	if !websocket.IsWebSocketUpgrade(r) {
		http.Error(w, "cdpvisor: "+r.URL.Path+" expects a websocket upgrade", http.StatusBadRequest)
		return
	}
	if origin := r.Header.Get("Origin"); !p.originAllowed(r) {
		http.Error(w, fmt.Sprintf("cdpvisor: refused: websocket Origin %q is not allowed; start cdpvisor with --allow-origin=%s to allow it", origin, origin), http.StatusForbidden)
		p.spec.Log.Warn().Str("origin", origin).Msg("refused a websocket with a foreign Origin")
		return
	}
	ep, err := p.spec.Browser.EnsureRunning(r.Context())
	if err != nil {
		p.browserUnavailable(w, r, err)
		return
	}
	url := ep.WSURL
	if target == pageTarget {
		url = "ws://" + ep.HostPort + r.URL.Path
	}
	browser, resp, err := browserDialer.DialContext(r.Context(), url, nil) // no Origin: Chromium would refuse it
	if err != nil {
		status := http.StatusBadGateway
		if resp != nil && resp.StatusCode >= 400 {
			status = resp.StatusCode
		}
		http.Error(w, fmt.Sprintf("cdpvisor: could not connect to the browser at %s: %v", url, err), status)
		return
	}
	upgrader := websocket.Upgrader{
		ReadBufferSize:  transport.FrameBufferSize,
		WriteBufferSize: transport.FrameBufferSize,
		CheckOrigin:     p.originAllowed,
	}
	client, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		browser.Close() // the upgrader already answered the client
		return
	}
	limit := p.spec.MaxMessage
	if limit <= 0 {
		limit = transport.MaxMessageSize
	}
	relay := NewRelayActor(RelaySpec{
		ID: relayIDs.Add(1), Instance: p.spec.Instance,
		Client:  transport.NewWSConn(client, limit),
		Browser: transport.NewWSConn(browser, limit), Endpoint: ep, Source: p.spec.Browser,
		Resilient: target == browserTarget, MaxMessage: limit, OnBrowserClose: p.spec.OnBrowserClose, Log: p.spec.Log,
	})
	if send(r.Context(), p.mailbox, relayOpened{relay: relay}) != nil {
		relay.Close(websocket.CloseGoingAway, "cdpvisor is shutting down")
		browser.Close()
		return
	}
	_ = relay.Serve(r.Context())
	// Not bound to the request context: at shutdown it is already done, and
	// the proxy is waiting to hear that this relay ended.
	select {
	case p.mailbox <- relayClosed{relay: relay}:
	case <-p.stopped:
	}
}

func (p *ProxyActor) originAllowed(r *http.Request) bool {
	return transport.OriginAllowed(r.Header.Get("Origin"), r.Host, p.spec.AllowOrigins)
}

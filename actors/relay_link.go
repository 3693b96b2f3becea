package actors

import (
	"context"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/transport"
)

// BrowserSource is what a relay asks for a browser: the BrowserActor.
type BrowserSource interface {
	EnsureRunning(ctx context.Context) (Endpoint, error)
	// Replace returns a browser other than generation gen: a fresh launch
	// when gen still runs, the current one otherwise.
	Replace(ctx context.Context, gen int) (Endpoint, error)
}

// browserLink is one browser connection of a relay; a relay has a new one
// after each recovery, and reports of an old one are ignored.
type browserLink struct {
	conn transport.Conn
	ep   Endpoint
}

// DialBrowser opens a websocket to the browser endpoint ep (never with an
// Origin: Chromium would refuse it).
func DialBrowser(ctx context.Context, ep Endpoint, limit int64) (transport.Conn, error) {
	c, _, err := browserDialer.DialContext(ctx, ep.WSURL, nil)
	if err != nil {
		return nil, err
	}
	return transport.NewWSConn(c, limit), nil
}

var browserDialer = &websocket.Dialer{
	HandshakeTimeout: transport.HandshakeTimeout,
	ReadBufferSize:   transport.FrameBufferSize,
	WriteBufferSize:  transport.FrameBufferSize,
	Proxy:            nil, // loopback: never through an HTTP proxy from the environment
}

// readResult is one message (or the end) from a reader goroutine.
type readResult struct {
	link *browserLink // nil for the client
	msg  *transport.Message
	err  error
}

// readLoop reads conn until it fails, handing each message to out; it
// ends when the relay is over (quit).
func readLoop(conn transport.Conn, link *browserLink, out chan<- readResult, quit <-chan struct{}) {
	for {
		m := transport.NewMessage()
		err := conn.Read(m)
		if err != nil {
			m.Release()
			m = nil
		}
		select {
		case out <- readResult{link: link, msg: m, err: err}:
		case <-quit:
			if m != nil {
				m.Release()
			}
			return
		}
		if err != nil {
			return
		}
	}
}

package relay

import (
	"context"
	"io"

	"github.com/cdpvisor/cdpvisor/actors/browser"

	"github.com/cdpvisor/cdpvisor/transport"
)

// BrowserSource is what a relay asks for a browser: the BrowserActor.
type BrowserSource interface {
	EnsureRunning(ctx context.Context) (browser.Endpoint, error)
	// Replace returns a browser other than generation gen: a fresh launch
	// when gen still runs, the current one otherwise.
	Replace(ctx context.Context, gen int) (browser.Endpoint, error)
}

// browserLink is one browser connection of a relay; a relay has a new one
// after each recovery, and reports of an old one are ignored.
type browserLink struct {
	conn transport.Conn
	ep   browser.Endpoint
}

// DialBrowser opens a websocket to the browser endpoint ep.
func DialBrowser(ctx context.Context, ep browser.Endpoint, limit int64) (transport.Conn, error) {
	c, err := transport.DialBrowser(ctx, ep.WSURL, limit)
	if err != nil {
		return nil, err // not a nil *WSConn in a non-nil interface
	}
	return c, nil
}

// readResult is one message (or the end) from a reader goroutine. A huge
// browser message comes as its first bytes and the rest, still on the
// wire: the reader waits for a signal on restDone before it reads on.
type readResult struct {
	link     *browserLink // nil for the client
	msg      *transport.Message
	rest     io.Reader
	restDone chan struct{}
	err      error
}

// streamAfter is the size past which a browser message is passed on while
// it is still arriving, instead of being held whole first.
const streamAfter = 64 << 10

// readLoop reads conn until it fails, handing each message to out; it
// ends when the relay is over (quit). Browser links stream huge messages.
func readLoop(conn transport.Conn, link *browserLink, out chan<- readResult, quit <-chan struct{}) {
	restDone := make(chan struct{}, 1) // one for the loop: a streamed message allocates nothing
	for {
		m := transport.NewMessage()
		var r readResult
		if link != nil {
			r.rest, r.err = conn.ReadStream(m, streamAfter)
		} else {
			r.err = conn.Read(m)
		}
		r.link = link
		if r.err != nil {
			m.Release()
		} else {
			r.msg = m
		}
		if r.rest != nil {
			r.restDone = restDone
		}
		select {
		case out <- r:
		case <-quit:
			if r.msg != nil {
				r.msg.Release()
			}
			return
		}
		if r.err != nil {
			return
		}
		if r.rest != nil {
			select { // the relay copies the rest off the wire meanwhile
			case <-r.restDone:
			case <-quit:
				return
			}
		}
	}
}

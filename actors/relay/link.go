package relay

import (
	"context"

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

// DialBrowser opens a websocket to the browser endpoint ep (directly, or
// through its Reach).
func DialBrowser(ctx context.Context, ep browser.Endpoint, limit int64) (transport.Conn, error) {
	return ep.Dial(ctx, ep.WSURL, limit)
}

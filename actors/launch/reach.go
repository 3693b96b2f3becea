package launch

import (
	"context"
	"net/http"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// Reach is how cdpvisor talks to a browser when it does not dial its
// debugging port itself: a Windows browser under WSL's NAT networking,
// whose 127.0.0.1 is not WSL's, is reached through a helper on the Windows
// side; a piped Chromium, which has no port, through its one connection
// (actors/multiplex). A nil Reach means directly. Implementations are safe
// for concurrent use, so a Reach is shared freely with everything that
// talks to that browser.
type Reach interface {
	// RoundTrip does one HTTP request to the browser (its /json surface).
	RoundTrip(*http.Request) (*http.Response, error)
	// DialWebSocket opens one of the browser's websockets (url as the
	// browser named it).
	DialWebSocket(ctx context.Context, url string, limit int64) (transport.Conn, error)
	// Name says which path it is, for logs and status.
	Name() string
}

// ReachTimeout bounds one request through a Reach: a helper costs a
// process start on the Windows side.
const ReachTimeout = 15 * time.Second

// HTTPClient is the client for the browser's /json surface: direct
// (returned as given) or through r.
func HTTPClient(r Reach, direct *http.Client) *http.Client {
	if r == nil {
		return direct
	}
	return &http.Client{Transport: r, Timeout: ReachTimeout}
}

// DialWebSocket opens a browser websocket directly or through r.
func DialWebSocket(ctx context.Context, r Reach, url string, limit int64) (transport.Conn, error) {
	if r != nil {
		return r.DialWebSocket(ctx, url, limit)
	}
	c, err := transport.DialBrowser(ctx, url, limit)
	if err != nil {
		return nil, err // not a nil *WSConn in a non-nil interface
	}
	return c, nil
}

// ReachName names the path to a browser for logs: "direct" or r's name.
func ReachName(r Reach) string {
	if r == nil {
		return "direct"
	}
	return r.Name()
}

package multiplex

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/cdpvisor/cdpvisor/transport"
)

// Name says how the browser is reached, for logs and status.
func (c *Connection) Name() string { return "pipe" }

// DialWebSocket opens what a socket of the browser's would be: a session
// on the browser target for /devtools/browser/…, on a target for
// /devtools/page/<id>.
func (c *Connection) DialWebSocket(ctx context.Context, rawURL string, _ int64) (transport.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, transport.HandshakeTimeout)
	defer cancel()
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &transport.DialError{URL: rawURL, Status: http.StatusNotFound, Err: err}
	}
	var s *Session
	switch {
	case u.Path == "/devtools/browser" || strings.HasPrefix(u.Path, "/devtools/browser/"):
		s, err = c.OpenBrowser(ctx)
	case strings.HasPrefix(u.Path, "/devtools/page/"):
		s, err = c.OpenPage(ctx, strings.TrimPrefix(u.Path, "/devtools/page/"))
	default:
		return nil, &transport.DialError{URL: rawURL, Status: http.StatusNotFound, Err: fmt.Errorf("no socket at %s", u.Path)}
	}
	if err != nil {
		de := &transport.DialError{URL: u.Path + " on its debugging pipe", Err: err}
		var ce *CDPError
		if errors.As(err, &ce) {
			de.Status = http.StatusNotFound // Chromium's "No target with given id found"
		}
		return nil, de
	}
	return s, nil
}

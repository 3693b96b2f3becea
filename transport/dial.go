package transport

import (
	"context"
	"fmt"

	"github.com/gorilla/websocket"
)

// DialError is a websocket dial the browser refused or never answered;
// Status is the HTTP status of a refusal (0 when there was no answer).
type DialError struct {
	URL    string
	Status int
	Err    error
}

func (e *DialError) Error() string {
	return fmt.Sprintf("could not connect to the browser at %s: %v", e.URL, e.Err)
}

func (e *DialError) Unwrap() error { return e.Err }

// browserDialer never sends an Origin (Chromium would refuse it) and never
// goes through an HTTP proxy from the environment: the browser is on loopback.
var browserDialer = &websocket.Dialer{
	HandshakeTimeout: HandshakeTimeout,
	ReadBufferSize:   FrameBufferSize,
	WriteBufferSize:  FrameBufferSize,
	Proxy:            nil,
}

// DialBrowser opens a websocket to a browser's debugging URL (its browser
// socket or a page's). Messages over limit bytes end the connection.
func DialBrowser(ctx context.Context, url string, limit int64) (*WSConn, error) {
	c, resp, err := browserDialer.DialContext(ctx, url, nil)
	if err != nil {
		de := &DialError{URL: url, Err: err}
		if resp != nil {
			de.Status = resp.StatusCode
		}
		return nil, de
	}
	return NewWSConn(c, limit), nil
}

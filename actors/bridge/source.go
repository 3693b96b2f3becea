package bridge

import (
	"context"
	"fmt"
	"net/url"

	"github.com/cdpvisor/cdpvisor/actors/browser"
)

// CoordinatorSource is a running coordinator's endpoint used as a browser:
// the coordinator launches, relaunches and cleans up; whoever relays to it
// only connects.
type CoordinatorSource struct{ ep browser.Endpoint }

// NewCoordinatorSource wraps a coordinator's browser websocket URL
// (ws://127.0.0.1:PORT/devtools/browser).
func NewCoordinatorSource(ws string) (*CoordinatorSource, error) {
	u, err := url.Parse(ws)
	if err != nil || u.Scheme != "ws" || u.Host == "" {
		return nil, fmt.Errorf("coordinator websocket %q: want ws://127.0.0.1:PORT/devtools/browser", ws)
	}
	return &CoordinatorSource{ep: browser.Endpoint{Generation: 1, WSURL: ws, HostPort: u.Host, Ownership: "attached"}}, nil
}

// EnsureRunning returns the coordinator's endpoint: it launches on demand.
func (c *CoordinatorSource) EnsureRunning(context.Context) (browser.Endpoint, error) {
	return c.ep, nil
}

// Replace returns the same endpoint: the coordinator relaunches by itself.
func (c *CoordinatorSource) Replace(context.Context, int) (browser.Endpoint, error) { return c.ep, nil }

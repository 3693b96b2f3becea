package main

import (
	"context"
	"fmt"
	"time"
)

// endpointSide is one of the two compared endpoints with a long-lived
// client on a flattened page session.
type endpointSide struct {
	side     side
	endpoint string // http://host:port
	ws       string // its webSocketDebuggerUrl
	client   *cdpClient
	session  string // flattened page session of client
	target   string
}

// openSide resolves the endpoint's websocket and opens the long-lived
// client and its page session (through cdpvisor: launches the browser).
func openSide(ctx context.Context, s side, endpoint string, timeout time.Duration) (*endpointSide, error) {
	ws, err := resolveWS(ctx, endpoint)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s, err)
	}
	c, err := dialCDP(ctx, ws)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s, err)
	}
	session, target, err := c.pageSession(ctx, timeout)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: page session: %w", s, err)
	}
	return &endpointSide{side: s, endpoint: endpoint, ws: ws, client: c, session: session, target: target}, nil
}

func (e *endpointSide) close(ctx context.Context, timeout time.Duration) {
	if e == nil || e.client == nil {
		return
	}
	if e.target != "" {
		e.client.closeTarget(ctx, e.target, timeout)
	}
	e.client.Close()
}

// evalOne is the round-trip unit: Runtime.evaluate "1" on the page session.
var evalOne = map[string]any{"expression": "1"}

// timedCall is one call's latency, or its error (a CDP error counts).
func timedCall(ctx context.Context, c *cdpClient, session, method string, params any, timeout time.Duration) (time.Duration, []byte, error) {
	t0 := time.Now()
	msg, err := c.Call(ctx, session, method, params, timeout)
	d := time.Since(t0)
	if err != nil {
		return d, nil, err
	}
	if err := answerError(msg); err != nil {
		return d, msg, err
	}
	return d, msg, nil
}

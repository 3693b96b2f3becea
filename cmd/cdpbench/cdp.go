package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// readLimit is the largest message the client accepts (a 10 MB string
// comes back as a bit more than 10 MB of JSON; screenshots are base64).
const readLimit = 256 << 20

// cdpDialer is the same for both sides: no compression, no proxy.
var cdpDialer = &websocket.Dialer{
	HandshakeTimeout: 10 * time.Second,
	ReadBufferSize:   64 << 10,
	WriteBufferSize:  64 << 10,
	Proxy:            nil,
}

// cdpClient is one CDP websocket: a single reader goroutine hands every
// answer to the waiter of its id; events are dropped.
type cdpClient struct {
	ws     *websocket.Conn
	nextID atomic.Int64

	wmu sync.Mutex // one writer at a time (gorilla's rule)

	mu      sync.Mutex
	waiters map[int64]chan []byte
	err     error // set when the reader stopped
	done    chan struct{}
}

// cdpError is an answer with an "error" member.
type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *cdpError) Error() string { return fmt.Sprintf("CDP error %d: %s", e.Code, e.Message) }

// dialCDP opens a CDP websocket at wsURL.
func dialCDP(ctx context.Context, wsURL string) (*cdpClient, error) {
	ws, _, err := cdpDialer.DialContext(ctx, wsURL, nil)
	if err != nil {
		return nil, fmt.Errorf("websocket %s: %w", wsURL, err)
	}
	ws.SetReadLimit(readLimit)
	c := &cdpClient{ws: ws, waiters: map[int64]chan []byte{}, done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

func (c *cdpClient) readLoop() {
	defer close(c.done)
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			for id, ch := range c.waiters {
				close(ch)
				delete(c.waiters, id)
			}
			c.mu.Unlock()
			return
		}
		id, ok := messageID(msg)
		if !ok {
			continue // an event
		}
		c.mu.Lock()
		ch := c.waiters[id]
		delete(c.waiters, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg // buffered: never blocks the reader
		}
	}
}

// messageID finds the "id" of an answer cheaply: Chromium writes it first
// ({"id":N,...}), so the usual case does not parse a 10 MB message twice.
// Anything else falls back to a full decode.
func messageID(msg []byte) (int64, bool) {
	const prefix = `{"id":`
	if len(msg) > len(prefix) && string(msg[:len(prefix)]) == prefix {
		end := len(prefix)
		for end < len(msg) && (msg[end] == '-' || (msg[end] >= '0' && msg[end] <= '9')) {
			end++
		}
		if end < len(msg) && (msg[end] == ',' || msg[end] == '}') {
			if id, err := strconv.ParseInt(string(msg[len(prefix):end]), 10, 64); err == nil {
				return id, true
			}
		}
	}
	var m struct {
		ID *int64 `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || m.ID == nil {
		return 0, false
	}
	return *m.ID, true
}

// Close ends the connection and waits for the reader.
func (c *cdpClient) Close() {
	_ = c.ws.Close()
	<-c.done
}

// Call sends one command and returns the raw answer. The measured part of
// a benchmark is this call: encoding the request, the wire both ways and
// finding the id; decoding the answer is left to the caller.
func (c *cdpClient) Call(ctx context.Context, sessionID, method string, params any, timeout time.Duration) ([]byte, error) {
	id := c.nextID.Add(1)
	req := struct {
		ID        int64  `json:"id"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
		SessionID string `json:"sessionId,omitempty"`
	}{id, method, params, sessionID}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	ch := make(chan []byte, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: connection closed: %w", method, err)
	}
	c.waiters[id] = ch
	c.mu.Unlock()

	c.wmu.Lock()
	err = c.ws.WriteMessage(websocket.TextMessage, body)
	c.wmu.Unlock()
	if err != nil {
		c.forget(id)
		return nil, fmt.Errorf("%s: write: %w", method, err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case msg, ok := <-ch:
		if !ok {
			c.mu.Lock()
			err := c.err
			c.mu.Unlock()
			return nil, fmt.Errorf("%s: connection closed: %w", method, err)
		}
		return msg, nil
	case <-timer.C:
		c.forget(id)
		return nil, fmt.Errorf("%s: no answer within %v", method, timeout)
	case <-ctx.Done():
		c.forget(id)
		return nil, ctx.Err()
	}
}

func (c *cdpClient) forget(id int64) {
	c.mu.Lock()
	delete(c.waiters, id)
	c.mu.Unlock()
}

// Do is Call plus decoding: the answer's result into out (may be nil), or
// its error.
func (c *cdpClient) Do(ctx context.Context, sessionID, method string, params, out any, timeout time.Duration) error {
	msg, err := c.Call(ctx, sessionID, method, params, timeout)
	if err != nil {
		return err
	}
	return decodeAnswer(msg, out)
}

func decodeAnswer(msg []byte, out any) error {
	var a struct {
		Result json.RawMessage `json:"result"`
		Error  *cdpError       `json:"error"`
	}
	if err := json.Unmarshal(msg, &a); err != nil {
		return fmt.Errorf("bad answer: %w", err)
	}
	if a.Error != nil {
		return a.Error
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(a.Result, out)
}

// answerError tells whether a raw answer is a CDP error, without decoding
// a large result: errors are small, results are checked by their caller.
func answerError(msg []byte) error {
	if len(msg) > 4096 {
		return nil
	}
	var a struct {
		Error *cdpError `json:"error"`
	}
	if err := json.Unmarshal(msg, &a); err != nil {
		return fmt.Errorf("bad answer: %w", err)
	}
	if a.Error != nil {
		return a.Error
	}
	return nil
}

// pageSession creates an about:blank page and attaches a flattened session
// to it; it returns the session id and the target id.
func (c *cdpClient) pageSession(ctx context.Context, timeout time.Duration) (session, target string, err error) {
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := c.Do(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created, timeout); err != nil {
		return "", "", err
	}
	s, err := c.attach(ctx, created.TargetID, timeout)
	return s, created.TargetID, err
}

// attach opens one more flattened session on target.
func (c *cdpClient) attach(ctx context.Context, target string, timeout time.Duration) (string, error) {
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.Do(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target, "flatten": true}, &attached, timeout); err != nil {
		return "", err
	}
	if attached.SessionID == "" {
		return "", errors.New("Target.attachToTarget: no sessionId")
	}
	return attached.SessionID, nil
}

// closeTarget closes a page (errors ignored: cleanup).
func (c *cdpClient) closeTarget(ctx context.Context, target string, timeout time.Duration) {
	_ = c.Do(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil, timeout)
}

// browserVersion is the answer of Browser.getVersion.
type browserVersion struct {
	Product         string `json:"product"`
	ProtocolVersion string `json:"protocolVersion"`
	UserAgent       string `json:"userAgent"`
}

// jsonVersion is GET /json/version.
type jsonVersion struct {
	Browser string `json:"Browser"`
	WS      string `json:"webSocketDebuggerUrl"`
}

var httpClient = &http.Client{
	Timeout:   30 * time.Second,
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
}

// resolveWS asks endpoint (http://host:port) for its browser websocket.
func resolveWS(ctx context.Context, endpoint string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/json/version", nil)
	if err != nil {
		return "", err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("GET %s/json/version: %w", endpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s/json/version: %s", endpoint, resp.Status)
	}
	var v jsonVersion
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", fmt.Errorf("GET %s/json/version: %w", endpoint, err)
	}
	if v.WS == "" {
		return "", fmt.Errorf("GET %s/json/version: no webSocketDebuggerUrl", endpoint)
	}
	return v.WS, nil
}

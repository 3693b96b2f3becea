package main

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// request is one CDP command. The id stays raw so it is echoed byte for byte
// (Playwright uses -9999).
type request struct {
	ID        json.RawMessage `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	ID        json.RawMessage `json:"id,omitempty"`
	Result    any             `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type event struct {
	Method    string `json:"method"`
	Params    any    `json:"params"`
	SessionID string `json:"sessionId,omitempty"`
}

// empty is the {} result.
type empty struct{}

func newConn(send func([]byte) error, close func(), page *target) *conn {
	return &conn{send: send, close: close, page: page, sessions: map[string]*target{}}
}

func (c *conn) sendJSON(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own types are marshalled
	}
	c.send(data) // a failed write shows up as a read error on the same client
}

func (c *conn) reply(req *request, result any) {
	c.sendJSON(response{ID: req.ID, Result: result, SessionID: req.SessionID})
}

func (c *conn) fail(req *request, code int, format string, args ...any) {
	c.sendJSON(response{ID: req.ID, Error: &cdpError{code, fmt.Sprintf(format, args...)}, SessionID: req.SessionID})
}

func (c *conn) event(method string, params any) {
	c.sendJSON(event{Method: method, Params: params})
}

// decodeParams reads req.Params into v, answering "Invalid parameters" when
// they do not fit.
func (c *conn) decodeParams(req *request, v any) bool {
	if len(req.Params) == 0 {
		return true
	}
	if err := json.Unmarshal(req.Params, v); err != nil {
		c.fail(req, -32602, "Invalid parameters")
		return false
	}
	return true
}

var integerID = regexp.MustCompile(`^-?[0-9]+$`)

// handle runs one message from any transport, on that transport's reader
// goroutine, so a client sees answers in the order it asked.
func (b *browser) handle(c *conn, data []byte) {
	var req request
	err := json.Unmarshal(data, &req)
	if !c.pipeRoot || req.SessionID != "" {
		b.countMessage()
	}
	if b.opts.hang {
		return
	}
	if err != nil {
		return // Chromium drops such a client; ignoring it is enough here
	}
	if !integerID.Match(req.ID) {
		c.sendJSON(response{Error: &cdpError{-32600, "Message must have integer 'id' property"}, SessionID: req.SessionID})
		return
	}
	if req.SessionID != "" && c.page == nil {
		c, req.SessionID = b.route(c, req.SessionID) // a browser session's, or its child's
	}
	if req.SessionID != "" || c.page != nil {
		b.handleSession(c, &req)
		return
	}
	method, ok := browserMethods[req.Method]
	if !ok {
		c.fail(&req, -32601, "'%s' wasn't found", req.Method)
		return
	}
	method(b, c, &req)
}

// handleSession answers a message for one target: on a flattened session or
// on a page connection.
func (b *browser) handleSession(c *conn, req *request) {
	b.mu.Lock()
	t := c.page
	if req.SessionID != "" {
		t = c.sessions[req.SessionID]
	}
	if t != nil && b.findTarget(t.id) == nil {
		t = nil
	}
	b.mu.Unlock()
	if t == nil {
		c.fail(req, -32001, "Session with given id not found.")
		return
	}
	switch req.Method {
	case "Runtime.evaluate":
		var p struct {
			Expression string `json:"expression"`
		}
		b.mu.Lock()
		held := len(t.waiting) > 0
		b.mu.Unlock()
		if held {
			c.fail(req, -32000, "fake: the target waits for the debugger of a session that attached it")
			return
		}
		if c.decodeParams(req, &p) {
			c.reply(req, evaluate(p.Expression))
		}
	case "Runtime.runIfWaitingForDebugger":
		b.mu.Lock()
		delete(t.waiting, req.SessionID)
		b.mu.Unlock()
		c.reply(req, empty{})
	case "Network.getAllCookies":
		b.sessionCookies(c, req, t)
	case "Browser.getVersion":
		c.reply(req, version)
	case "Target.setAutoAttach":
		if b.opts.autoAttachFail {
			c.fail(req, -32000, "fake auto-attach failure")
			return
		}
		c.reply(req, empty{})
	default:
		c.reply(req, empty{}) // Page.enable, Runtime.runIfWaitingForDebugger, ...
	}
}

// Package multiplex carries every client of a browser over its one
// debugging pipe. Each client gets a session of its own on that
// connection (a browser session from Target.attachToBrowserTarget, or a
// target's for a page socket): its root-level messages take that
// session's id on the way in and lose it on the way out, its child
// sessions are routed by their ids, and Chromium keeps each client's
// Target state itself. A Connection is a launch.Reach: everything that
// talks to the browser (relays, the hang probe, the downloads and worlds
// actors, the endpoint's /json answers) reaches it through one.
package multiplex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// Host stands for the browser's host:port in the URLs a Connection makes:
// a pipe has none, and the endpoint rewrites this name to its own.
const Host = "pipe.cdpvisor.invalid"

// ErrClosed is a call on a connection whose pipe has closed: the browser
// exited, or cdpvisor let it go.
var ErrClosed = transport.ErrPipeClosed

// Connection is one browser's debugging pipe shared by all its clients.
// Its reader goroutine owns the routes (which session gets a message);
// others reach it through its mailbox, which the reader empties before it
// routes each message: every mailbox entry is followed by a request on
// the pipe, whose answer wakes the reader.
type Connection struct {
	pipe    Wire
	writeMu sync.Mutex // one message at a time on the pipe, from any session
	head    []byte     // writeTagged's scratch; guarded by writeMu
	mailbox chan call
	nextID  atomic.Int64 // the connection's own ids on the root session
	done    chan struct{}
	err     error // why the reader ended; set before done closes
	log     zerolog.Logger

	browserTarget string  // the browser target's id
	version       Version // what Browser.getVersion said at start
	schema        Schema  // /json/protocol's source; nil: none

	// Owned by the reader goroutine.
	sessions map[string]*Session // by the session's own id
	children map[string]*Session // child sessions, by their id: the session that owns them
	calls    map[int64]call      // the connection's own requests awaiting their answers
}

// Version is Browser.getVersion's answer.
type Version struct {
	ProtocolVersion string `json:"protocolVersion"`
	Product         string `json:"product"`
	Revision        string `json:"revision"`
	UserAgent       string `json:"userAgent"`
	JSVersion       string `json:"jsVersion"`
}

// call is one request of the connection's own on the root session; reply
// (buffered) gets its answer. open: the answer names a session to make.
type call struct {
	id    int64
	open  *Session // a session to register under the answer's sessionId
	reply chan answer
}

type answer struct {
	result json.RawMessage
	err    error
}

// Wire is the one browser connection a Connection carries its sessions
// on: the debugging pipe (transport.PipeConn), or a single websocket to a
// browser that has no pipe for cdpvisor (transport.WSConn).
type Wire interface {
	Read(m *transport.Message) error
	// WriteJoined sends head and then body as one message.
	WriteJoined(head, body []byte) error
	Close(code int, reason string)
}

// Spec is what a Connection is told besides its wire.
type Spec struct {
	Log zerolog.Logger
	// Schema is where /json/protocol's document comes from: the browser's
	// launcher knows its executable, this package only the wire. Nil: the
	// request is answered 404.
	Schema Schema
}

// Schema returns the protocol schema of the browser that said it is v, the
// document its own HTTP server would serve at /json/protocol. The
// Connection does not change the bytes.
type Schema func(ctx context.Context, v Version) ([]byte, error)

// Start takes over pipe (the browser's fds 3 and 4, seen from cdpvisor, or
// a websocket) and returns once the browser answered on it: its version
// and its browser target. On failure the pipe is closed.
func Start(ctx context.Context, pipe Wire, spec Spec) (*Connection, error) {
	c := &Connection{
		pipe: pipe, mailbox: make(chan call, 64), done: make(chan struct{}), log: spec.Log, schema: spec.Schema,
		sessions: map[string]*Session{}, children: map[string]*Session{}, calls: map[int64]call{},
	}
	go c.read() // owned: ends when the pipe closes (Close, or the browser's exit)
	if err := c.hello(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// hello asks what the browser is: the first answer is its readiness.
func (c *Connection) hello(ctx context.Context) error {
	raw, err := c.Call(ctx, "Browser.getVersion", nil)
	if err == nil {
		err = json.Unmarshal(raw, &c.version)
	}
	if err != nil {
		return fmt.Errorf("Browser.getVersion on the debugging pipe: %w", err)
	}
	var info struct {
		TargetInfo struct {
			TargetID string `json:"targetId"`
		} `json:"targetInfo"`
	}
	if raw, err = c.Call(ctx, "Target.getTargetInfo", nil); err == nil {
		err = json.Unmarshal(raw, &info)
	}
	if err != nil || info.TargetInfo.TargetID == "" {
		return fmt.Errorf("Target.getTargetInfo on the debugging pipe: %w", errors.Join(err, errors.New("no browser target")))
	}
	c.browserTarget = info.TargetInfo.TargetID
	return nil
}

// Version is what the browser said it is when it started.
func (c *Connection) Version() Version { return c.version }

// BrowserURL is the browser socket's URL as this connection names it.
func (c *Connection) BrowserURL() string {
	return "ws://" + Host + "/devtools/browser/" + c.browserTarget
}

// Done is closed once the pipe has closed.
func (c *Connection) Done() <-chan struct{} { return c.done }

// Close closes the pipe (a browser still running exits on it, as
// Chromium does) and waits for the reader to end.
func (c *Connection) Close() {
	c.pipe.Close(0, "")
	<-c.done
}

// Call sends method on the root session and waits for its result.
func (c *Connection) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.request(ctx, method, params, nil)
}

func (c *Connection) request(ctx context.Context, method string, params any, open *Session) (json.RawMessage, error) {
	cl, err := c.start(ctx, method, params, open)
	if err != nil {
		return nil, err
	}
	select {
	case a := <-cl.reply:
		return a.result, a.err
	case <-c.done:
		return nil, c.err
	case <-ctx.Done():
		if open != nil {
			c.abandon(cl, open)
		}
		return nil, ctx.Err() // the answer, if it comes, is dropped by the reader
	}
}

// start registers a call with the reader, then sends its request.
func (c *Connection) start(ctx context.Context, method string, params any, open *Session) (call, error) {
	id := c.nextID.Add(1)
	msg, err := rootRequest(id, method, params)
	if err != nil {
		return call{}, err
	}
	cl := call{id: id, open: open, reply: make(chan answer, 1)}
	select {
	case c.mailbox <- cl: // before the request: its answer finds it there
	case <-c.done:
		return call{}, c.err
	case <-ctx.Done():
		return call{}, ctx.Err()
	}
	return cl, c.write(msg)
}

// abandonWait bounds how long an opener that gave up waits to close the
// session its request may still open.
const abandonWait = 2 * time.Second

// abandon closes the session an open that gave up made after all, so the
// browser does not keep it.
func (c *Connection) abandon(cl call, s *Session) {
	t := time.NewTimer(abandonWait)
	defer t.Stop()
	select {
	case a := <-cl.reply:
		if a.err == nil && s.id != "" {
			s.Close(0, "")
		}
	case <-c.done:
	case <-t.C:
	}
}

// send writes a request of the connection's own whose answer nobody waits for.
func (c *Connection) send(method string, params any) {
	if msg, err := rootRequest(c.nextID.Add(1), method, params); err == nil {
		_ = c.write(msg)
	}
}

func rootRequest(id int64, method string, params any) ([]byte, error) {
	if params == nil {
		params = struct{}{}
	}
	return json.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params"`
	}{id, method, params})
}

// write puts one message on the pipe.
func (c *Connection) write(msg []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.pipe.WriteJoined(nil, msg); err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

// CDPError is an error answer of the browser's.
type CDPError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *CDPError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

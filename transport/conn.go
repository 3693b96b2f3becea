package transport

import (
	"io"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is one end of a relay: a client (websocket or pipe) or a browser
// websocket. One goroutine reads, one writes; Close is safe from anywhere.
type Conn interface {
	// Read fills m with the next whole message.
	Read(m *Message) error
	// ReadStream is Read for messages that may be huge: past prefixMax bytes
	// it stops, leaving the first bytes in m and returning the rest as a
	// reader, which must be read to its end (or the connection closed)
	// before the next read. rest is nil when m holds the whole message.
	ReadStream(m *Message, prefixMax int) (rest io.Reader, err error)
	// Write sends one whole message.
	Write(msg []byte, binary bool) error
	// WriteStream sends prefix and then what rest yields, as one message,
	// without holding it whole. A failure of rest is a *SourceError.
	WriteStream(prefix []byte, rest io.Reader, binary bool) error
	// Close ends the connection, telling the peer code and reason where
	// the transport can say it.
	Close(code int, reason string)
	// Mode is "ws" or "pipe", for the logs.
	Mode() string
}

// WSConn is a websocket end.
type WSConn struct {
	c     *websocket.Conn
	limit int64
	once  sync.Once
}

// NewWSConn wraps c; messages over limit bytes end the connection (1009).
func NewWSConn(c *websocket.Conn, limit int64) *WSConn {
	if limit <= 0 {
		limit = MaxMessageSize
	}
	c.SetReadLimit(limit)
	// Nagle off: every CDP message is one small write that must leave now.
	// Go's default already, said here because the round trip depends on it.
	nc := c.NetConn()
	if u, ok := nc.(interface{ Unwrap() net.Conn }); ok {
		nc = u.Unwrap() // an upgrade that fixed its Accept (Upgrade)
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	return &WSConn{c: c, limit: limit}
}

func (w *WSConn) Mode() string { return "ws" }

func (w *WSConn) Read(m *Message) error {
	kind, r, err := w.c.NextReader()
	if err != nil {
		return err
	}
	m.Binary = kind == websocket.BinaryMessage
	return m.readAll(r, w.limit)
}

func (w *WSConn) ReadStream(m *Message, prefixMax int) (io.Reader, error) {
	kind, r, err := w.c.NextReader()
	if err != nil {
		return nil, err
	}
	m.Binary = kind == websocket.BinaryMessage
	return m.readPrefix(r, prefixMax)
}

func (w *WSConn) WriteStream(prefix []byte, rest io.Reader, binary bool) error {
	kind := websocket.TextMessage
	if binary {
		kind = websocket.BinaryMessage
	}
	mw, err := w.c.NextWriter(kind)
	if err != nil {
		return err
	}
	if err := copyStream(mw, prefix, rest); err != nil {
		mw.Close()
		return err
	}
	return mw.Close()
}

func (w *WSConn) Write(msg []byte, binary bool) error {
	kind := websocket.TextMessage
	if binary {
		kind = websocket.BinaryMessage
	}
	return w.c.WriteMessage(kind, msg)
}

// WriteJoined sends head and then body as one text message, without a
// copy of a large body (as PipeConn.WriteJoined does on a pipe).
func (w *WSConn) WriteJoined(head, body []byte) error {
	mw, err := w.c.NextWriter(websocket.TextMessage)
	if err != nil {
		return err
	}
	if _, err := mw.Write(head); err != nil {
		return err
	}
	if _, err := mw.Write(body); err != nil {
		return err
	}
	return mw.Close()
}

// Close sends a close frame (once) and closes the socket.
func (w *WSConn) Close(code int, reason string) {
	w.once.Do(func() {
		if len(reason) > 120 { // a close frame's payload is at most 125 bytes
			reason = reason[:120]
		}
		_ = w.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(controlTimeout))
		_ = w.c.Close()
	})
}

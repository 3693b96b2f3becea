package transport

import (
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is one end of a relay: a client (websocket or pipe) or a browser
// websocket. One goroutine reads, one writes; Close is safe from anywhere.
type Conn interface {
	// Read fills m with the next whole message.
	Read(m *Message) error
	// Write sends one whole message.
	Write(msg []byte, binary bool) error
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

func (w *WSConn) Write(msg []byte, binary bool) error {
	kind := websocket.TextMessage
	if binary {
		kind = websocket.BinaryMessage
	}
	return w.c.WriteMessage(kind, msg)
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

package transport

import (
	"io"
	"sync"

	"github.com/gorilla/websocket"
)

// Message is one CDP message in a pooled buffer, so a steady relay
// allocates nothing per message.
type Message struct {
	B      []byte
	Binary bool // arrived as a binary websocket frame
}

// Buffers of any size go back to the pool: a steady stream of screenshots
// reuses its large buffers, and sync.Pool lets the collector take what
// stays unused for two cycles, so nothing is pinned for long.
var messages = sync.Pool{New: func() any { return &Message{B: make([]byte, 0, 4096)} }}

// NewMessage takes a message buffer from the pool.
func NewMessage() *Message { return messages.Get().(*Message) }

// Release returns m to the pool; m must not be used after.
func (m *Message) Release() {
	m.B, m.Binary = m.B[:0], false
	messages.Put(m)
}

// readAll appends r to m.B until EOF, growing it as needed, and fails
// once it holds more than limit bytes.
func (m *Message) readAll(r io.Reader, limit int64) error {
	m.B = m.B[:0]
	for {
		if len(m.B) == cap(m.B) {
			m.B = append(m.B, 0)[:len(m.B)]
		}
		n, err := r.Read(m.B[len(m.B):cap(m.B)])
		m.B = m.B[:len(m.B)+n]
		if int64(len(m.B)) > limit {
			return websocket.ErrReadLimit
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

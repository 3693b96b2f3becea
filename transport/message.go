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

// keepCap is the largest buffer returned to the pool. Pooling 10 MB
// buffers saves an allocation per huge message but kept a coordinator at
// 100 MB resident after a few of them; screenshots (a few 100 KB) still fit.
const keepCap = 1 << 20

var messages = sync.Pool{New: func() any { return &Message{B: make([]byte, 0, 4096)} }}

// NewMessage takes a message buffer from the pool.
func NewMessage() *Message { return messages.Get().(*Message) }

// Release returns m to the pool; m must not be used after.
func (m *Message) Release() {
	if cap(m.B) > keepCap {
		m.B = make([]byte, 0, 4096)
	}
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

package transport

import (
	"io"
	"slices"
	"sync"

	"github.com/gorilla/websocket"
)

// Message is one CDP message in a pooled buffer, so a steady relay
// allocates nothing per message.
type Message struct {
	B      []byte
	Binary bool // arrived as a binary websocket frame
}

// smallCap is the largest buffer the message pool keeps. A pooled buffer
// keeps the room of the largest message it ever held, and a busy pool is
// never emptied by the collector: each large message (a page's injected
// script, a screenshot) left one more pooled buffer large, and a
// coordinator under 20 agents crept from 30 to 60 MB of heap in 15 minutes
// (the soak), until a quiet moment let the pool go.
const smallCap = 16 << 10

// Large buffers (up to largeCap; pooling 10 MB ones kept a coordinator at
// 100 MB resident after a few huge messages) wait for the next large
// message in a list of largeKept at most: a few MB, whatever the load.
const (
	largeCap  = 1 << 20
	largeKept = 8
)

var (
	messages     = sync.Pool{New: func() any { return &Message{B: make([]byte, 0, 4096)} }}
	largeBuffers = make(chan []byte, largeKept)
)

// NewMessage takes a message buffer from the pool.
func NewMessage() *Message { return messages.Get().(*Message) }

// Release returns m to the pool; m must not be used after.
func (m *Message) Release() {
	if cap(m.B) > smallCap {
		if cap(m.B) <= largeCap {
			select {
			case largeBuffers <- m.B[:0]:
			default: // enough are kept
			}
		}
		m.B = make([]byte, 0, 4096)
	}
	m.B, m.Binary = m.B[:0], false
	messages.Put(m)
}

// grow makes room for more of m: once it outgrows the small buffers, a
// large one kept from an earlier message if there is one, else twice the
// room it has.
func (m *Message) grow() {
	if cap(m.B) >= smallCap {
		select {
		case b := <-largeBuffers:
			if cap(b) > cap(m.B) {
				m.B = append(b, m.B...)
				return
			}
		default:
		}
	}
	m.B = slices.Grow(m.B, max(cap(m.B), 4096))
}

// readAll appends r to m.B until EOF, growing it as needed, and fails
// once it holds more than limit bytes.
func (m *Message) readAll(r io.Reader, limit int64) error {
	m.B = m.B[:0]
	for {
		if len(m.B) == cap(m.B) {
			m.grow()
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

// readPrefix reads r into m until EOF or prefixMax bytes; what is left of
// a longer message is returned as rest.
func (m *Message) readPrefix(r io.Reader, prefixMax int) (rest io.Reader, err error) {
	if cap(m.B) < prefixMax {
		m.B = make([]byte, 0, prefixMax)
	}
	m.B = m.B[:prefixMax]
	n, err := io.ReadFull(r, m.B)
	m.B = m.B[:n]
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return nil, nil // shorter than prefixMax: whole
	case nil:
		return r, nil
	}
	return nil, err
}

// SourceError is a failure to read what a stream was copying.
type SourceError struct{ Err error }

func (e *SourceError) Error() string { return "reading the streamed message: " + e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// copyStream writes prefix and then rest to w.
func copyStream(w io.Writer, prefix []byte, rest io.Reader) error {
	if _, err := w.Write(prefix); err != nil {
		return err
	}
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	buf := *bp
	for {
		n, rerr := rest.Read(buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return &SourceError{Err: rerr}
		}
	}
}

// ReadFrom appends what r yields to the message.
func (m *Message) ReadFrom(r io.Reader) (int64, error) {
	start := len(m.B)
	for {
		if len(m.B) == cap(m.B) {
			m.grow()
		}
		n, err := r.Read(m.B[len(m.B):cap(m.B)])
		m.B = m.B[:len(m.B)+n]
		if err == io.EOF {
			return int64(len(m.B) - start), nil
		}
		if err != nil {
			return int64(len(m.B) - start), err
		}
	}
}

package actortest

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// ChanConn is an in-memory relay end (transport.Conn) a test plays the peer
// of: the relay reads what the test puts on In, and every message it writes
// arrives on Out, copied. Close (by the relay or by the test, as a killed
// browser's socket) ends Read with io.EOF.
type ChanConn struct {
	In     chan []byte
	Out    chan []byte
	closed chan struct{}
	once   sync.Once
}

// NewChanConn makes a ChanConn.
func NewChanConn() *ChanConn {
	return &ChanConn{In: make(chan []byte, 16), Out: make(chan []byte, 64), closed: make(chan struct{})}
}

func (c *ChanConn) Mode() string { return "ws" }

func (c *ChanConn) Read(m *transport.Message) error {
	select {
	case b := <-c.In:
		m.B = append(m.B[:0], b...)
		return nil
	case <-c.closed:
		return io.EOF
	}
}

func (c *ChanConn) ReadStream(m *transport.Message, _ int) (io.Reader, error) {
	return nil, c.Read(m)
}

func (c *ChanConn) Write(msg []byte, _ bool) error {
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	c.Out <- bytes.Clone(msg)
	return nil
}

func (c *ChanConn) WriteStream(prefix []byte, rest io.Reader, binary bool) error {
	b, err := io.ReadAll(rest)
	if err != nil {
		return &transport.SourceError{Err: err}
	}
	return c.Write(append(bytes.Clone(prefix), b...), binary)
}

func (c *ChanConn) Close(int, string) { c.once.Do(func() { close(c.closed) }) }

// Next is the next message the relay wrote to this end, within 5 s.
func (c *ChanConn) Next(t testing.TB) []byte {
	t.Helper()
	select {
	case b := <-c.Out:
		return b
	case <-time.After(5 * time.Second):
		t.Fatal("nothing within 5 s")
		return nil
	}
}

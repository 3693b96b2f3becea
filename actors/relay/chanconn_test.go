package relay_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// chanConn is an in-memory relay end a test plays the peer of: the relay
// reads what the test puts on in, and every message it writes arrives on
// out, copied. Close (by the relay or by the test, as a killed browser's
// socket) ends Read with io.EOF.
type chanConn struct {
	in     chan []byte
	out    chan []byte
	closed chan struct{}
	once   sync.Once
}

func newChanConn() *chanConn {
	return &chanConn{in: make(chan []byte, 16), out: make(chan []byte, 64), closed: make(chan struct{})}
}

func (c *chanConn) Mode() string { return "ws" }

func (c *chanConn) Read(m *transport.Message) error {
	select {
	case b := <-c.in:
		m.B = append(m.B[:0], b...)
		return nil
	case <-c.closed:
		return io.EOF
	}
}

func (c *chanConn) ReadStream(m *transport.Message, _ int) (io.Reader, error) {
	return nil, c.Read(m)
}

func (c *chanConn) Write(msg []byte, _ bool) error {
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	c.out <- bytes.Clone(msg)
	return nil
}

func (c *chanConn) WriteStream(prefix []byte, rest io.Reader, binary bool) error {
	b, err := io.ReadAll(rest)
	if err != nil {
		return &transport.SourceError{Err: err}
	}
	return c.Write(append(bytes.Clone(prefix), b...), binary)
}

func (c *chanConn) Close(int, string) { c.once.Do(func() { close(c.closed) }) }

// next is the next message the relay wrote to this end, within 5 s.
func (c *chanConn) next(t *testing.T) []byte {
	t.Helper()
	select {
	case b := <-c.out:
		return b
	case <-time.After(5 * time.Second):
		t.Fatal("nothing within 5 s")
		return nil
	}
}

// serveRelay runs a relay of spec until the test ends, when its client
// closes and the relay must end within 5 s.
func serveRelay(t *testing.T, client *chanConn, spec relay.Spec) {
	t.Helper()
	r := relay.New(spec)
	served := make(chan struct{})
	go func() { _ = r.Serve(context.Background()); close(served) }()
	t.Cleanup(func() {
		client.Close(1000, "")
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the relay did not end")
		}
	})
}

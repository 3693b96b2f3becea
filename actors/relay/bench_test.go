package relay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// memConn is an in-memory relay end for benchmarks: Read hands out the
// next message given to it, Write reports what the relay sent. Neither
// allocates, so the benchmark counts only the relay's own work.
type memConn struct {
	in      chan []byte   // messages the relay will read
	out     chan struct{} // one per message the relay wrote
	last    []byte        // the last message written (a view, for checks)
	lastLen int           // its length, streamed parts included
	rest    bytes.Reader  // the unread part of a streamed message
	frame   [32 << 10]byte
	closed  chan struct{}
	// closeOnce: Close is called from any goroutine, as a socket's may be
	// (the relay's close and its reader's failure can race).
	closeOnce sync.Once
}

func newMemConn() *memConn {
	return &memConn{in: make(chan []byte, 1), out: make(chan struct{}, 1), closed: make(chan struct{})}
}

func (c *memConn) Mode() string { return "ws" }

func (c *memConn) Read(m *transport.Message) error {
	select {
	case b := <-c.in:
		m.B = append(m.B[:0], b...) // the frame read into the relay's buffer
		return nil
	case <-c.closed:
		return io.EOF
	}
}

func (c *memConn) ReadStream(m *transport.Message, prefixMax int) (io.Reader, error) {
	select {
	case b := <-c.in:
		if len(b) <= prefixMax {
			m.B = append(m.B[:0], b...)
			return nil, nil
		}
		m.B = append(m.B[:0], b[:prefixMax]...)
		c.rest.Reset(b[prefixMax:])
		return &c.rest, nil
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *memConn) Write(msg []byte, _ bool) error {
	c.last, c.lastLen = msg, len(msg)
	c.out <- struct{}{}
	return nil
}

func (c *memConn) WriteStream(prefix []byte, rest io.Reader, _ bool) error {
	// Copied out in frame-sized pieces, as onto a socket.
	var n int
	for {
		k, err := rest.Read(c.frame[:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	c.last, c.lastLen = prefix, len(prefix)+n
	c.out <- struct{}{}
	return nil
}

func (c *memConn) Close(int, string) { c.closeOnce.Do(func() { close(c.closed) }) }

// echoBrowser answers every request the relay writes with response.
type echoBrowser struct {
	*memConn
	response []byte
}

func (e *echoBrowser) WriteStream(prefix []byte, rest io.Reader, _ bool) error {
	e.in <- e.response
	return nil
}

func (e *echoBrowser) Write(msg []byte, _ bool) error {
	e.in <- e.response
	return nil
}

// BenchmarkRelayRoundTrip forwards a request and its answer through a
// RelayActor: head scanning, in-flight bookkeeping, both writes. The answer
// carries the payload (like a screenshot); past 64 KB it is streamed on as
// it arrives, so the 10 MB case holds no more than its first 64 KB.
func BenchmarkRelayRoundTrip(b *testing.B) {
	for _, size := range []int{200, 64 << 10, 10 << 20} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			client := newMemConn()
			echo := &echoBrowser{memConn: newMemConn()}
			payload := strings.Repeat("A", size)
			echo.response = []byte(`{"id":1,"result":{"data":"` + payload + `"},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			request := []byte(`{"id":1,"method":"Page.captureScreenshot","params":{},"sessionId":"0123456789ABCDEF0123456789ABCDEF"}`)
			relay := New(Spec{
				ID: 1, Client: client, Browser: echo, Endpoint: browser.Endpoint{Generation: 1},
				Resilient: true, Log: zerolog.Nop(),
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { _ = relay.Serve(ctx); close(done) }()
			round := func() {
				client.in <- request
				<-client.out
			}
			round()
			if client.lastLen != len(echo.response) {
				b.Fatalf("answer of %d bytes, want %d", client.lastLen, len(echo.response))
			}
			b.SetBytes(int64(len(echo.response) + len(request)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				round()
			}
			b.StopTimer()
			cancel()
			<-done
		})
	}
}

func ExampleScanHead() {
	h, _ := transport.ScanHead([]byte(`{"method":"Target.attachedToTarget","params":{"sessionId":"X"},"sessionId":"S"}`))
	fmt.Println(string(h.Method), string(h.SessionID), h.HasID)
	// Output: Target.attachedToTarget S false
}

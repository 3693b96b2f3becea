package browser

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/transport"
)

// probeServer answers the probe's asks on its first connection until it
// drops it; then, by stall, it answers nothing on a new connection (a hung
// browser) or never completes a handshake (a stopped one).
func probeServer(t *testing.T, stall string) string {
	var conns atomic.Int32
	up := websocket.Upgrader{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := conns.Add(1)
		if n > 1 && stall == "handshake" {
			<-r.Context().Done()
			return
		}
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for answered := 0; ; answered++ {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			if n == 1 && answered == 3 {
				return // dropped: the probe must connect again
			}
			if n == 1 {
				_ = c.WriteMessage(websocket.TextMessage, []byte(strings.Replace(string(msg), `"method"`, `"result":{},"x"`, 1)))
			}
		}
	}))
	srv.Listener.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return "ws://" + l.Addr().String() + "/devtools/browser/x"
}

// The probe does not give up when its connection ends: a browser that hangs
// afterwards, whether it answers nothing on a new connection or never
// completes the handshake, is found hung within the timeout after its
// last answer.
func TestHangProbeOutlivesItsConnection(t *testing.T) {
	for _, stall := range []string{"answers", "handshake"} {
		t.Run(stall, func(t *testing.T) {
			url := probeServer(t, stall)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			const timeout = 600 * time.Millisecond
			start := time.Now()
			silent, hung := probeHang(ctx, nil, url, `{"id":%d,"method":"Browser.getVersion"}`, timeout)
			if !hung || silent < timeout {
				t.Fatalf("probe ended hung=%v silent=%s after %s: want hung", hung, silent, time.Since(start))
			}
		})
	}
}

// stuckPipe is the probe's connection to a browser on its debugging pipe
// that stopped reading: it answers the first asks, then a write blocks for
// good (the pipe's buffer full), as does closing it, until released.
type stuckPipe struct {
	answers  chan struct{}
	released chan struct{}
	writes   atomic.Int32
}

func (p *stuckPipe) RoundTrip(*http.Request) (*http.Response, error) { return nil, context.Canceled }
func (p *stuckPipe) Name() string                                    { return "stuck pipe" }
func (p *stuckPipe) DialWebSocket(context.Context, string, int64) (transport.Conn, error) {
	return p, nil
}
func (p *stuckPipe) Read(m *transport.Message) error {
	select {
	case <-p.answers:
		m.B = append(m.B[:0], `{"id":1,"result":{}}`...)
		return nil
	case <-p.released:
		return context.Canceled
	}
}
func (p *stuckPipe) ReadStream(m *transport.Message, _ int) (io.Reader, error) { return nil, p.Read(m) }
func (p *stuckPipe) Write([]byte, bool) error {
	if p.writes.Add(1) > 3 {
		<-p.released
		return context.Canceled
	}
	p.answers <- struct{}{}
	return nil
}
func (p *stuckPipe) WriteStream([]byte, io.Reader, bool) error { return p.Write(nil, false) }
func (p *stuckPipe) Close(int, string)                         { <-p.released }
func (p *stuckPipe) Mode() string                              { return "pipe" }

// A browser on its pipe that stops reading blocks the probe's write: the
// probe still finds it hung within the timeout after its last answer (the
// probe that wrote on its own loop waited on the write for ever).
func TestHangProbeIsNotHeldByAWriteThatBlocks(t *testing.T) {
	pipe := &stuckPipe{answers: make(chan struct{}, 8), released: make(chan struct{})}
	defer close(pipe.released) // the browser killed: its pipe's I/O fails
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan bool, 1)
	go func() {
		_, hung := probeHang(ctx, pipe, "ws://pipe/devtools/browser/x", `{"id":%d,"method":"Browser.getVersion"}`, 600*time.Millisecond)
		done <- hung
	}()
	select {
	case hung := <-done:
		if !hung {
			t.Fatal("the probe ended without finding the browser hung")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no verdict 10 s after the browser stopped reading: the probe waits on its write")
	}
}

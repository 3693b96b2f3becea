package downloads

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// peer is a fake browser's CDP websocket: it answers every command, and the
// test reads the commands and sends events.
type peer struct {
	t        *testing.T
	srv      *httptest.Server
	commands chan peerCommand
	mu       sync.Mutex
	conn     *websocket.Conn // the latest connection
	contexts []string        // what Target.getBrowserContexts answers
}

type peerCommand struct {
	ID     int64          `json:"id"`
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
}

func newPeer(t *testing.T) *peer {
	p := &peer{t: t, commands: make(chan peerCommand, 100)}
	up := websocket.Upgrader{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conn = c
		p.mu.Unlock()
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var cmd peerCommand
			if json.Unmarshal(data, &cmd) != nil {
				continue
			}
			result := map[string]any{}
			if cmd.Method == "Target.getBrowserContexts" {
				p.mu.Lock()
				result["browserContextIds"] = append([]string{}, p.contexts...)
				p.mu.Unlock()
			}
			p.write(map[string]any{"id": cmd.ID, "result": result})
			p.commands <- cmd
		}
	}))
	t.Cleanup(func() {
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

func (p *peer) wsURL() string {
	return "ws://" + strings.TrimPrefix(p.srv.URL, "http://") + "/devtools/browser/x"
}

func (p *peer) write(v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		p.t.Error("no connection to write to")
		return
	}
	_ = p.conn.WriteJSON(v)
}

// event sends a CDP event.
func (p *peer) event(method string, params map[string]any) {
	p.write(map[string]any{"method": method, "params": params})
}

func (p *peer) setContexts(ids ...string) {
	p.mu.Lock()
	p.contexts = ids
	p.mu.Unlock()
}

// next is the next command the actor sent, other than skip.
func (p *peer) next(skip ...string) peerCommand {
	p.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case c := <-p.commands:
			if contains(skip, c.Method) {
				continue
			}
			return c
		case <-timeout:
			p.t.Fatal("no command from the actor within 10 s")
			return peerCommand{}
		}
	}
}

// expect is the next command, which must be method.
func (p *peer) expect(method string) peerCommand {
	p.t.Helper()
	c := p.next()
	if c.Method != method {
		p.t.Fatalf("command %s %v, want %s", c.Method, c.Params, method)
	}
	return c
}

func (p *peer) dropConnection() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		p.conn.Close()
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fakeBrowser stands in for a BrowserActor: the test says when a browser is
// ready and when it exits.
type fakeBrowser struct {
	mu   sync.Mutex
	subs []chan<- browser.Event
}

func (b *fakeBrowser) Subscribe(_ context.Context, ch chan<- browser.Event, _ browser.Delivery) (func(), error) {
	b.mu.Lock()
	b.subs = append(b.subs, ch)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, s := range b.subs {
			if s == ch {
				b.subs = append(b.subs[:i], b.subs[i+1:]...)
				return
			}
		}
	}, nil
}

func (b *fakeBrowser) emit(t *testing.T, ev browser.Event) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		b.mu.Lock()
		subs := append([]chan<- browser.Event{}, b.subs...)
		b.mu.Unlock()
		if len(subs) > 0 {
			for _, s := range subs {
				select {
				case s <- ev:
				case <-deadline:
					t.Fatal("the actor took no event within 10 s")
				}
			}
			return
		}
		select {
		case <-deadline:
			t.Fatal("the actor did not subscribe within 10 s")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// clientConn is a client's browser connection, for Watch.
type clientConn struct {
	mu     sync.Mutex
	wrote  [][]byte
	closed bool
}

func (c *clientConn) Read(*transport.Message) error { return io.EOF }
func (c *clientConn) ReadStream(*transport.Message, int) (io.Reader, error) {
	return nil, io.EOF
}
func (c *clientConn) Write(msg []byte, _ bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wrote = append(c.wrote, append([]byte{}, msg...))
	return nil
}
func (c *clientConn) WriteStream(prefix []byte, rest io.Reader, binary bool) error {
	b, _ := io.ReadAll(rest)
	return c.Write(append(append([]byte{}, prefix...), b...), binary)
}
func (c *clientConn) Close(int, string) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}
func (c *clientConn) Mode() string { return "ws" }

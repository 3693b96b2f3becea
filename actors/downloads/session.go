package downloads

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// sessionMaxMessage bounds what the browser may send on the actor's own
// connection (target infos carry URLs, data: URLs included).
const sessionMaxMessage = 16 << 20

// session is the DownloadsActor's own CDP connection to one browser
// generation: it sets the download behaviour there and hears the download
// and target events. Chromium undoes a connection's download behaviour
// when that connection closes, so it stays open while the browser runs.
// Its goroutines (dial and read, write) end when it is stopped or the
// browser closes the connection; the actor waits for them.
type session struct {
	gen    int
	ctx    context.Context
	cancel context.CancelFunc
	cmds   chan []byte   // to the writer, in order
	done   chan struct{} // closed when its goroutines have ended
	nextID int64         // the actor's alone
}

// Session reports to the actor.
type (
	sessionOpened struct{ gen int }
	sessionEnded  struct {
		gen int
		err error
	}
	sessionMessage struct {
		gen int
		msg cdpMessage
	}
)

// cdpMessage is what the actor reads of a CDP message.
type cdpMessage struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// heard are the events the actor acts on; the rest is not passed on.
var heard = map[string]bool{
	"Browser.downloadWillBegin": true, "Browser.downloadProgress": true,
	"Target.targetCreated": true, "Target.targetInfoChanged": true, "Target.targetDestroyed": true,
}

// startSession connects to ep's browser and reports to out.
func startSession(ep browser.Endpoint, out chan<- any) *session {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{gen: ep.Generation, ctx: ctx, cancel: cancel, cmds: make(chan []byte, 256), done: make(chan struct{})}
	go s.run(ep, out)
	return s
}

// stop ends the session and waits for its goroutines.
func (s *session) stop() {
	s.cancel()
	<-s.done
}

// send queues a command and returns its id; false when the queue is full
// (the browser reads nothing: the session is ending anyway).
func (s *session) send(method string, params any) (int64, bool) {
	s.nextID++
	b, err := json.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params,omitempty"`
	}{s.nextID, method, params})
	if err != nil {
		return 0, false
	}
	select {
	case s.cmds <- b:
		return s.nextID, true
	default:
		return 0, false
	}
}

func (s *session) run(ep browser.Endpoint, out chan<- any) {
	defer close(s.done)
	conn, err := ep.Dial(s.ctx, ep.WSURL, sessionMaxMessage)
	if err != nil {
		s.report(out, sessionEnded{gen: s.gen, err: err})
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	read := make(chan error, 1)
	go func() { defer wg.Done(); read <- s.read(conn, out) }()
	go func() { defer wg.Done(); s.write(conn) }()
	s.report(out, sessionOpened{gen: s.gen})
	select {
	case err := <-read: // the browser ended it: the actor may reconnect
		s.report(out, sessionEnded{gen: s.gen, err: err})
	case <-s.ctx.Done(): // stopped by the actor
	}
	s.cancel()
	conn.Close(1000, "")
	wg.Wait()
}

func (s *session) read(conn transport.Conn, out chan<- any) error {
	m := transport.NewMessage()
	defer m.Release()
	for {
		if err := conn.Read(m); err != nil {
			return err
		}
		var msg cdpMessage
		if err := json.Unmarshal(m.B, &msg); err != nil {
			continue // not CDP; nothing to act on
		}
		if msg.Method != "" && !heard[msg.Method] {
			continue
		}
		if !s.report(out, sessionMessage{gen: s.gen, msg: msg}) {
			return nil
		}
	}
}

func (s *session) write(conn transport.Conn) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case b := <-s.cmds:
			if err := conn.Write(b, false); err != nil {
				conn.Close(1000, "") // the reader sees the end and reports it
				return
			}
		}
	}
}

// report hands news to the actor unless the session is stopping.
func (s *session) report(out chan<- any, m any) bool {
	select {
	case out <- m:
		return true
	case <-s.ctx.Done():
		return false
	}
}

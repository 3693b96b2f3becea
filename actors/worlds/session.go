package worlds

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// sessionMaxMessage bounds what the browser may send on the actor's own
// connection: target lists carry URLs (data: URLs included), cookie
// snapshots every cookie of a world.
const sessionMaxMessage = 64 << 20

// session is the WorldsActor's own CDP connection to one browser
// generation: it makes and disposes the worlds' contexts, reads and
// restores their cookies, lists and closes their targets. Contexts made on
// it outlive it (Chromium keeps a context made without disposeOnDetach
// until it is disposed or the browser exits), so a new session serves the
// worlds of the same browser. Its goroutines (dial and read, write) end
// when it is stopped or the browser closes it; stop waits for them.
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
	sessionEnded struct {
		gen int
		err error
	}
	sessionAnswer struct {
		gen    int
		answer answer
	}
)

// answer is the browser's answer to one of the actor's commands.
type answer struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *cdpError       `json:"error"`
	lost   error           // the command never reached a browser, or its answer never came
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// err is the answer's failure, nil when it succeeded.
func (a answer) err() error {
	if a.lost != nil {
		return a.lost
	}
	if a.Error == nil {
		return nil
	}
	return fmt.Errorf("the browser answered %d: %s", a.Error.Code, a.Error.Message)
}

// failed is the answer to a command that never reached a browser.
func failed(err error) answer { return answer{lost: err} }

// startSession connects to ep's browser and reports to out.
func startSession(ep browser.Endpoint, out chan<- any) *session {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{gen: ep.Generation, ctx: ctx, cancel: cancel, cmds: make(chan []byte, 1024), done: make(chan struct{})}
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
	read := make(chan error, 1)
	wg.Go(func() { read <- s.read(conn, out) })
	wg.Go(func() { s.write(conn) })
	select {
	case err := <-read: // the browser ended it
		s.report(out, sessionEnded{gen: s.gen, err: err})
	case <-s.ctx.Done(): // stopped by the actor
	}
	s.cancel()
	conn.Close(1000, "")
	wg.Wait()
}

// read reports the answers; the browser's events are not the actor's
// business (it asks what it needs to know).
func (s *session) read(conn transport.Conn, out chan<- any) error {
	m := transport.NewMessage()
	defer m.Release()
	for {
		if err := conn.Read(m); err != nil {
			return err
		}
		if h, err := transport.ScanHead(m.B); err != nil || !h.HasID {
			continue
		}
		var a answer
		if json.Unmarshal(m.B, &a) != nil {
			continue
		}
		if !s.report(out, sessionAnswer{gen: s.gen, answer: a}) {
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

// Package cdpsession is an actor's own CDP connection to the browser of
// one generation (the DownloadsActor's, the WorldsActor's): the actor sends
// commands through it and is told what the browser sends back, as
// messages in its own mailbox.
package cdpsession

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Spec is what differs between the actors' sessions. M is the closed set
// of what a session tells its actor (the actor's own sealed type).
type Spec[M any] struct {
	MaxMessage int64 // the largest message the browser may send on it
	Queue      int   // commands queued for the writer before Send refuses
	// Read turns one message of the browser into what the actor is told of
	// it; false: nothing (an event it does not act on, say).
	Read func(gen int, raw []byte) (M, bool)
	// Opened and Ended turn the session's own news into the actor's
	// messages (its sealed set cannot hold this package's types). Ended is
	// required; a nil Opened: the actor is not told of it.
	Opened func(Opened) M
	Ended  func(Ended) M
}

// Session is one connection. Its goroutines (dial and read, write) end
// when it is stopped or the browser closes it; Stop waits for them.
type Session[M any] struct {
	gen    int
	spec   Spec[M]
	ctx    context.Context
	cancel context.CancelFunc
	cmds   chan []byte   // to the writer, in order
	done   chan struct{} // closed when its goroutines have ended
	nextID int64         // the actor's alone
}

// What a session tells its actor besides what Read makes of messages.
type (
	// Opened: the connection is up.
	Opened struct{ Gen int }
	// Ended: the browser closed it, or it never opened (Err says why).
	Ended struct {
		Gen int
		Err error
	}
)

// Start connects to ep's browser and reports to out.
func Start[M any](ep browser.Endpoint, out chan<- M, spec Spec[M]) *Session[M] {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session[M]{gen: ep.Generation, spec: spec, ctx: ctx, cancel: cancel, cmds: make(chan []byte, spec.Queue), done: make(chan struct{})}
	go s.run(ep, out)
	return s
}

// Gen is the browser generation it is connected to.
func (s *Session[M]) Gen() int { return s.gen }

// Stop ends the session and waits for its goroutines.
func (s *Session[M]) Stop() {
	s.cancel()
	<-s.done
}

// Send queues a command and returns its id; false when the queue is full
// (the browser reads nothing: the session is ending anyway).
func (s *Session[M]) Send(method string, params any) (int64, bool) {
	return s.SendTo("", method, params)
}

// SendTo is Send to a target's session (flatten) on the connection; "":
// the browser's.
func (s *Session[M]) SendTo(sessionID, method string, params any) (int64, bool) {
	s.nextID++
	b, err := json.Marshal(struct {
		ID        int64  `json:"id"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
		SessionID string `json:"sessionId,omitempty"`
	}{s.nextID, method, params, sessionID})
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

func (s *Session[M]) run(ep browser.Endpoint, out chan<- M) {
	defer close(s.done)
	conn, err := ep.Dial(s.ctx, ep.WSURL, s.spec.MaxMessage)
	if err != nil {
		s.report(out, s.spec.Ended(Ended{Gen: s.gen, Err: err}))
		return
	}
	var wg sync.WaitGroup
	read := make(chan error, 1)
	wg.Go(func() { read <- s.read(conn, out) })
	wg.Go(func() { s.write(conn) })
	if s.spec.Opened != nil {
		s.report(out, s.spec.Opened(Opened{Gen: s.gen}))
	}
	select {
	case err := <-read: // the browser ended it: the actor may reconnect
		s.report(out, s.spec.Ended(Ended{Gen: s.gen, Err: err}))
	case <-s.ctx.Done(): // stopped by the actor
	}
	s.cancel()
	conn.Close(1000, "")
	wg.Wait()
}

func (s *Session[M]) read(conn transport.Conn, out chan<- M) error {
	m := transport.NewMessage()
	defer m.Release()
	for {
		if err := conn.Read(m); err != nil {
			return err
		}
		news, ok := s.spec.Read(s.gen, m.B)
		if !ok {
			continue
		}
		if !s.report(out, news) {
			return nil
		}
	}
}

func (s *Session[M]) write(conn transport.Conn) {
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
func (s *Session[M]) report(out chan<- M, m M) bool {
	select {
	case out <- m:
		return true
	case <-s.ctx.Done():
		return false
	}
}

package multiplex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/cdpvisor/cdpvisor/transport"
)

var (
	errSessionClosed = errors.New("the session was closed")
	errSessionEnded  = errors.New("the browser ended the session (its target is gone)")
)

// Session is one client's share of the connection, a transport.Conn: a
// session of its own on the browser target (or on a page, for a page
// socket). One goroutine reads, one writes; Close is safe from anywhere.
type Session struct {
	conn   *Connection
	id     string // set by the connection's reader before the opener hears of it
	tag    []byte // `"sessionId":"<id>"`, put into the client's root-level messages
	inbox  *inbox
	closed atomic.Bool
	once   sync.Once
}

// OpenBrowser opens a browser session: the client sees the browser
// target's root, with Target state of its own.
func (c *Connection) OpenBrowser(ctx context.Context) (*Session, error) {
	return c.open(ctx, "Target.attachToBrowserTarget", nil)
}

// OpenPage opens a session on one target, for a page socket.
func (c *Connection) OpenPage(ctx context.Context, targetID string) (*Session, error) {
	return c.open(ctx, "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true})
}

func (c *Connection) open(ctx context.Context, method string, params any) (*Session, error) {
	s := &Session{conn: c, inbox: newInbox()}
	if _, err := c.request(ctx, method, params, s); err != nil {
		return nil, err
	}
	if s.id == "" {
		return nil, fmt.Errorf("%s answered no sessionId", method)
	}
	return s, nil
}

func (s *Session) setID(id string) {
	s.id = id
	s.tag = sessionTag(id)
}

// sessionTag is the member `"sessionId":ID` with id as JSON writes it (Go's
// %q escapes some characters in ways JSON does not read).
func sessionTag(id string) []byte {
	quoted, _ := json.Marshal(id)
	return append([]byte(`"sessionId":`), quoted...)
}

func (s *Session) Mode() string { return "pipe" }

func (s *Session) closing() bool { return s.closed.Load() }

// Read takes the next message of the session.
func (s *Session) Read(m *transport.Message) error {
	got, err := s.inbox.pop()
	if err != nil {
		return err
	}
	m.B, got.B = got.B, m.B // the buffers change hands: no copy
	m.Binary = false
	got.Release()
	return nil
}

// ReadStream reads whole messages: the connection's reader has them whole
// (the sessionId that routes one comes last).
func (s *Session) ReadStream(m *transport.Message, _ int) (io.Reader, error) { return nil, s.Read(m) }

// Write sends a client message in the session: a root-level one with the
// session's id put in, one of the client's child sessions as it is, and
// one naming any other session not at all (answered as Chromium answers
// a session it does not know).
func (s *Session) Write(msg []byte, _ bool) error {
	if s.closing() {
		return errSessionClosed
	}
	// The whole head, not the last member alone: a second sessionId before
	// it must not reach the browser, which might take that one.
	h, err := transport.ScanHead(msg)
	switch {
	case err != nil:
		return s.answerSelf(&h, "-32700", "Message must be a valid JSON object: "+err.Error())
	case h.Sessions > 1:
		return s.answerSelf(&h, "-32600", "Message must have one 'sessionId' property at most")
	case len(h.SessionID) == 0:
		return s.conn.writeTagged(s.tag, msg)
	case s.inbox.owns(h.SessionID):
		return s.conn.write(msg)
	}
	return s.answerSelf(&h, "-32001", "Session with given id not found.")
}

// answerSelf queues an error answer the session gives the client itself,
// as Chromium words it.
func (s *Session) answerSelf(h *transport.Head, code, message string) error {
	m := transport.NewMessage()
	m.B = append(m.B, '{')
	if h.HasID {
		m.B = fmt.Appendf(m.B, `"id":%d,`, h.ID)
	}
	m.B = fmt.Appendf(m.B, `"error":{"code":%s,"message":%q}`, code, message)
	if len(h.SessionID) > 0 {
		m.B = fmt.Appendf(m.B, `,"sessionId":%q`, h.SessionID)
	}
	m.B = append(m.B, '}')
	s.inbox.push(m)
	return nil
}

// WriteStream sends a message given in parts (the relay streams only what
// the browser sends, so this is rare): it is joined first.
func (s *Session) WriteStream(prefix []byte, rest io.Reader, binary bool) error {
	var b bytes.Buffer
	b.Write(prefix)
	if _, err := b.ReadFrom(rest); err != nil {
		return &transport.SourceError{Err: err}
	}
	return s.Write(b.Bytes(), binary)
}

// Close ends the session: the browser detaches it (and its children;
// contexts it made with disposeOnDetach go with it).
func (s *Session) Close(int, string) {
	s.once.Do(func() {
		s.closed.Store(true)
		s.inbox.close(errSessionClosed, true)
		if s.id != "" {
			s.conn.send("Target.detachFromTarget", map[string]string{"sessionId": s.id})
		}
	})
}

// writeTagged writes msg, a root-level message of a session, with the
// session's id as its first member.
func (c *Connection) writeTagged(tag, msg []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	head, rest, err := tagged(c.head[:0], tag, msg)
	if err != nil {
		return err
	}
	c.head = head
	if err := c.pipe.WriteJoined(head, rest); err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

// tagged splits msg with tag put in as its first member: head (appended to
// dst) then rest, written joined so that msg is never copied.
func tagged(dst, tag, msg []byte) (head, rest []byte, err error) {
	i := 0
	for i < len(msg) && isSpace(msg[i]) {
		i++
	}
	if i == len(msg) || msg[i] != '{' {
		return dst, nil, fmt.Errorf("a CDP message must be a JSON object")
	}
	rest = msg[i+1:]
	j := 0
	for j < len(rest) && isSpace(rest[j]) {
		j++
	}
	head = append(append(dst, '{'), tag...)
	if j == len(rest) || rest[j] != '}' {
		head = append(head, ',')
	}
	return head, rest, nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

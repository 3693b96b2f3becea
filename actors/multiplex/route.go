package multiplex

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cdpvisor/cdpvisor/transport"
)

// read is the connection's reader: it takes each message off the pipe and
// hands it to the session it belongs to, without ever waiting for one.
func (c *Connection) read() {
	defer c.end()
	for {
		m := transport.NewMessage()
		if err := c.pipe.Read(m); err != nil {
			m.Release()
			c.err = fmt.Errorf("%w: %v", ErrClosed, err)
			return
		}
		c.takeMail()
		c.route(m)
	}
}

// takeMail registers the calls made since the last message.
func (c *Connection) takeMail() {
	for {
		select {
		case cl := <-c.mailbox:
			c.calls[cl.id] = cl
		default:
			return
		}
	}
}

// end tells every session and caller that the pipe closed, and closes
// cdpvisor's ends of it.
func (c *Connection) end() {
	c.pipe.Close(0, "")
	c.takeMail()
	for _, s := range c.sessions {
		s.inbox.close(c.err, false) // what came before the end is still read
	}
	for _, cl := range c.calls {
		cl.reply <- answer{err: c.err}
	}
	close(c.done)
}

// route hands m to its session: a session's own messages lose its id (the
// client knows it as the root), a child session's go as they came.
// Chromium appends the sessionId last; anything else is scanned whole.
func (c *Connection) route(m *transport.Message) {
	id, at := tailSession(m.B)
	if at < 0 {
		h, err := transport.ScanHead(m.B)
		if err != nil {
			c.log.Warn().Err(err).Msg("an unreadable message on the debugging pipe was dropped")
			m.Release()
			return
		}
		id = h.SessionID
	}
	if len(id) == 0 {
		c.onRoot(m)
		return
	}
	if s, ok := c.sessions[string(id)]; ok {
		c.learn(s, m.B)
		if at >= 0 {
			m.B = append(m.B[:at], '}')
		} else {
			m.B = withoutSessionID(m.B)
		}
		c.deliver(s, m)
		return
	}
	if s, ok := c.children[string(id)]; ok {
		c.learn(s, m.B)
		c.deliver(s, m)
		return
	}
	m.Release() // a session that has ended
}

func (c *Connection) deliver(s *Session, m *transport.Message) {
	if !s.inbox.push(m) && !s.closing() {
		c.log.Warn().Str("session", s.id).Msg("a client did not read its messages; its session is ended")
		s.inbox.close(errOverflow, true)
	}
}

// Events name their method first: Chromium writes them so.
var (
	attachedEvent = []byte(`{"method":"Target.attachedToTarget"`)
	detachedEvent = []byte(`{"method":"Target.detachedFromTarget"`)
)

// learn follows the child sessions of s: the browser attaches them in
// Target.attachedToTarget and ends them in Target.detachedFromTarget.
func (c *Connection) learn(s *Session, msg []byte) {
	attached := bytes.HasPrefix(msg, attachedEvent)
	if !attached && !bytes.HasPrefix(msg, detachedEvent) {
		return
	}
	child := eventSessionID(msg)
	switch {
	case child == "":
	case attached:
		c.children[child] = s
		s.inbox.own(child)
	default:
		delete(c.children, child)
		s.inbox.disown(child)
	}
}

func eventSessionID(msg []byte) string {
	var ev struct {
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &ev)
	return ev.Params.SessionID
}

// onRoot takes a message of the root session: an answer to one of the
// connection's own calls, or the end of a session.
func (c *Connection) onRoot(m *transport.Message) {
	defer m.Release()
	h, err := transport.ScanHead(m.B)
	if err != nil {
		return
	}
	if !h.HasID {
		if h.Is("Target.detachedFromTarget") {
			c.ended(eventSessionID(m.B))
		}
		return
	}
	cl, ok := c.calls[h.ID]
	if !ok {
		return // a call nobody waits for (a detach)
	}
	delete(c.calls, h.ID)
	var a struct {
		Result json.RawMessage `json:"result"`
		Error  *CDPError       `json:"error"`
	}
	if err := json.Unmarshal(m.B, &a); err != nil {
		cl.reply <- answer{err: fmt.Errorf("an unreadable answer on the debugging pipe: %w", err)}
		return
	}
	if a.Error != nil {
		cl.reply <- answer{err: a.Error}
		return
	}
	if cl.open != nil {
		c.register(cl.open, a.Result)
	}
	cl.reply <- answer{result: a.Result}
}

// register files an opened session under the id its answer gave.
func (c *Connection) register(s *Session, result json.RawMessage) {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(result, &r) == nil && r.SessionID != "" {
		s.setID(r.SessionID)
		c.sessions[r.SessionID] = s
	}
}

// ended forgets a session the browser ended (its detach was answered, or
// its target is gone) with its children; its reader is told.
func (c *Connection) ended(id string) {
	s, ok := c.sessions[id]
	if !ok {
		return
	}
	delete(c.sessions, id)
	for child, owner := range c.children {
		if owner == s {
			delete(c.children, child)
		}
	}
	s.inbox.close(errSessionEnded, false)
}

// tailSession finds the `,"sessionId":"ID"}` that Chromium appends to every
// message of a session: the id, and where the member starts (-1: not there).
func tailSession(b []byte) (id []byte, at int) {
	const key = `,"sessionId":`
	n := len(b)
	if n < len(key)+3 || b[n-1] != '}' || b[n-2] != '"' {
		return nil, -1
	}
	q := bytes.LastIndexByte(b[:n-2], '"')
	if q < len(key) || string(b[q-len(key):q]) != key {
		return nil, -1 // an escaped quote has a backslash before it, never the key
	}
	id = b[q+1 : n-2]
	if bytes.IndexByte(id, '\\') >= 0 {
		return nil, -1
	}
	return id, q - len(key)
}

// withoutSessionID drops a top-level sessionId that is not last (never so
// from Chromium): the members are written again in their order.
func withoutSessionID(b []byte) []byte {
	var members []struct {
		key string
		raw json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return b
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return b
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return b
		}
		if key, _ := t.(string); key != "sessionId" {
			members = append(members, struct {
				key string
				raw json.RawMessage
			}{key, raw})
		}
	}
	out := []byte{'{'}
	for i, mb := range members {
		if i > 0 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(mb.key)
		out = append(append(append(out, k...), ':'), mb.raw...)
	}
	return append(out, '}')
}

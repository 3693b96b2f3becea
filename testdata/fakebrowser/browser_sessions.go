package main

import "encoding/json"

// Browser sessions, as Chromium has them: Target.attachToBrowserTarget on a
// browser-level connection (the pipe, typically) opens a session on the
// browser target, and a message carrying its sessionId is handled exactly as
// on a separate browser-level connection, with Target state of its own. A
// browser session is a conn whose messages carry its sessionId as their last
// member; its own child sessions carry theirs. Session ids are unique, so a
// child's id finds the browser session that owns it.

// browserTargetType is the type of the target a browser session is on.
const browserTargetType = "browser"

// browserInfo is the browser target: its id is the one in the websocket
// path, stable for the process. b.mu is held (or not needed).
func (b *browser) browserInfo() targetInfo {
	return targetInfo{TargetID: b.uuid, Type: browserTargetType, Attached: true}
}

// sessionSend wraps a transport's send for the browser session id: a
// message without a sessionId of its own gets it appended as its last
// member, as Chromium does.
func sessionSend(send func([]byte) error, id string) func([]byte) error {
	suffix := []byte(`,"sessionId":"` + id + `"}`)
	return func(msg []byte) error {
		var probe struct {
			SessionID *string `json:"sessionId"`
		}
		n := len(msg)
		if json.Unmarshal(msg, &probe) == nil && probe.SessionID == nil && n > 1 && msg[n-1] == '}' {
			msg = append(msg[:n-1:n-1], suffix...) // the cap forces a copy
		}
		return send(msg)
	}
}

// route finds the conn a message with sessionID is for, searching c's
// browser sessions (and theirs) for it or for the child session it names.
// On the browser session itself the message is browser-level: the returned
// id is "". Nothing found: c and the id, for handleSession to answer "not
// found".
func (b *browser) route(c *conn, sessionID string) (*conn, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	owner := c.sessionOwner(sessionID)
	switch {
	case owner == nil:
		return c, sessionID
	case owner.sessionID == sessionID:
		return owner, ""
	default:
		return owner, sessionID
	}
}

// sessionOwner is c, or one of its browser sessions at any depth, that is
// the browser session sessionID or has the child session sessionID.
func (c *conn) sessionOwner(sessionID string) *conn {
	if c.sessions[sessionID] != nil {
		return c
	}
	for id, bs := range c.browserSessions {
		if id == sessionID {
			return bs
		}
		if owner := bs.sessionOwner(sessionID); owner != nil {
			return owner
		}
	}
	return nil
}

// attachToBrowserTarget opens a browser session on c, announcing it with
// Target.attachedToTarget before the answer.
func (b *browser) attachToBrowserTarget(c *conn, req *request) {
	b.mu.Lock()
	id := newID()
	bs := newConn(sessionSend(c.send, id), func() {}, nil)
	bs.sessionID = id
	if c.browserSessions == nil {
		c.browserSessions = map[string]*conn{}
	}
	c.browserSessions[id] = bs
	b.conns[bs] = true
	c.event("Target.attachedToTarget", attachedParams{id, b.browserInfo(), false})
	b.mu.Unlock()
	c.reply(req, struct {
		SessionID string `json:"sessionId"`
	}{id})
}

// detachBrowserSession ends c's browser session id and announces it on c.
// b.mu is held.
func (b *browser) detachBrowserSession(c *conn, id string) {
	bs := c.browserSessions[id]
	delete(c.browserSessions, id)
	b.endConn(bs)
	c.event("Target.detachedFromTarget", detachedParams{id, b.uuid})
}

// endConn forgets a connection or browser session that went away: its
// browser sessions end with it, targets its sessions held for the debugger
// run, and the contexts it made with disposeOnDetach are disposed (their
// targets closed). Nothing more is sent to it. b.mu is held.
func (b *browser) endConn(c *conn) {
	delete(b.conns, c)
	for id, bs := range c.browserSessions {
		delete(c.browserSessions, id)
		b.endConn(bs)
	}
	for sessionID, t := range c.sessions {
		delete(t.waiting, sessionID) // a closed connection holds nothing up
	}
	for _, id := range c.ownContexts {
		b.disposeContext(id) // false when disposed already
	}
	c.ownContexts = nil
}

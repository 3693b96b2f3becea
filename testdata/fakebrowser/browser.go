package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// target is one debuggable thing: a page, or a browser_ui surface that
// clients are expected to filter out by type.
type target struct {
	id, kind, title, url, contextID string
	// waiting: the sessions that attached it waiting for the debugger and
	// have not let it run yet (Runtime.runIfWaitingForDebugger or a
	// detach); while any does, it runs no script. Guarded by browser.mu.
	waiting map[string]bool
}

// conn is one CDP client: a websocket, the pipe, or a browser session on
// one of them (see browser_sessions.go). Browser-level connections get
// Target events and flattened sessions; a page connection is bound to one
// target and its messages act on it.
type conn struct {
	send      func([]byte) error // serialised by the transport
	close     func()
	page      *target // nil on browser-level connections
	sessionID string  // a browser session's own id; "" on a connection
	pipeRoot  bool    // the pipe: messages without sessionId are not counted (faults.go)

	// Guarded by browser.mu.
	discover        bool
	autoAttach      bool
	waitForDebugger bool
	sessions        map[string]*target
	browserSessions map[string]*conn // from Target.attachToBrowserTarget
	ownContexts     []string         // created with disposeOnDetach
}

// browser is the whole fake: its targets, contexts and connected clients.
type browser struct {
	opts           options
	uuid           string // in the browser websocket path, new per process
	defaultContext string

	mu       sync.Mutex
	targets  []*target
	contexts []string            // created by Target.createBrowserContext
	cookies  map[string][]cookie // by context
	conns    map[*conn]bool

	received atomic.Int64 // CDP messages, for --fake-crash-after

	// Set once the debugging port is listening.
	addr    string // host:port
	readyAt time.Time

	procMu   sync.Mutex
	listener net.Listener
	child    *exec.Cmd
	exitOnce sync.Once
}

func newBrowser(opts options) *browser {
	b := &browser{
		opts:           opts,
		uuid:           newUUID(),
		defaultContext: newID(),
		conns:          map[*conn]bool{},
		cookies:        map[string][]cookie{},
	}
	// Like Chromium: one blank page plus a browser_ui target.
	b.targets = []*target{
		{id: newID(), kind: "page", title: "about:blank", url: "about:blank", contextID: b.defaultContext},
		{id: newID(), kind: "browser_ui", title: "Omnibox Popup", url: "chrome://omnibox-popup.top-chrome/", contextID: b.defaultContext},
	}
	return b
}

// newID returns 32 uppercase hex digits, the shape of Chromium's target,
// session and context ids.
func newID() string {
	var buf [16]byte
	rand.Read(buf[:])
	return strings.ToUpper(hex.EncodeToString(buf[:]))
}

func newUUID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

type targetInfo struct {
	TargetID         string `json:"targetId"`
	Type             string `json:"type"`
	Title            string `json:"title"`
	URL              string `json:"url"`
	Attached         bool   `json:"attached"`
	CanAccessOpener  bool   `json:"canAccessOpener"`
	BrowserContextID string `json:"browserContextId,omitempty"` // none for the browser target
}

type targetInfoParams struct {
	TargetInfo targetInfo `json:"targetInfo"`
}

type attachedParams struct {
	SessionID          string     `json:"sessionId"`
	TargetInfo         targetInfo `json:"targetInfo"`
	WaitingForDebugger bool       `json:"waitingForDebugger"`
}

type detachedParams struct {
	SessionID string `json:"sessionId"`
	TargetID  string `json:"targetId"`
}

type targetIDParams struct {
	TargetID string `json:"targetId"`
}

type reasonParams struct {
	Reason string `json:"reason"`
}

// The methods below expect b.mu to be held: they change state and send the
// events that go with the change, so events keep the order of changes.

func (b *browser) findTarget(id string) *target {
	for _, t := range b.targets {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (b *browser) isAttached(t *target) bool {
	for c := range b.conns {
		if c.page == t || c.hasSessionOn(t) {
			return true
		}
	}
	return false
}

func (c *conn) hasSessionOn(t *target) bool {
	for _, st := range c.sessions {
		if st == t {
			return true
		}
	}
	return false
}

func (b *browser) info(t *target) targetInfo {
	return targetInfo{
		TargetID: t.id, Type: t.kind, Title: t.title, URL: t.url,
		Attached: b.isAttached(t), BrowserContextID: t.contextID,
	}
}

func (b *browser) infos() []targetInfo {
	out := make([]targetInfo, 0, len(b.targets))
	for _, t := range b.targets {
		out = append(out, b.info(t))
	}
	return out
}

// addTarget creates a page and tells discovering and auto-attaching clients.
func (b *browser) addTarget(url, contextID string) *target {
	if url == "" {
		url = "about:blank"
	}
	t := &target{id: newID(), kind: "page", title: url, url: url, contextID: contextID}
	b.targets = append(b.targets, t)
	for c := range b.conns {
		if c.discover {
			c.event("Target.targetCreated", targetInfoParams{b.info(t)})
		}
	}
	for c := range b.conns {
		if c.autoAttach {
			b.attach(c, t, c.waitForDebugger)
		}
	}
	return t
}

// attach opens a flattened session on c. As in Chromium, a target that
// becomes attached is first announced with targetInfoChanged.
func (b *browser) attach(c *conn, t *target, waiting bool) string {
	wasAttached := b.isAttached(t)
	sessionID := newID()
	c.sessions[sessionID] = t
	if waiting {
		if t.waiting == nil {
			t.waiting = map[string]bool{}
		}
		t.waiting[sessionID] = true
	}
	info := b.info(t)
	if !wasAttached {
		for d := range b.conns {
			if d.discover {
				d.event("Target.targetInfoChanged", targetInfoParams{info})
			}
		}
	}
	c.event("Target.attachedToTarget", attachedParams{sessionID, info, waiting})
	return sessionID
}

func (b *browser) detach(c *conn, sessionID string) {
	t := c.sessions[sessionID]
	delete(c.sessions, sessionID)
	delete(t.waiting, sessionID)
	c.event("Target.detachedFromTarget", detachedParams{sessionID, t.id})
}

// removeTarget closes t: sessions on it detach, discovering clients hear it
// was destroyed and page connections to it are dropped.
func (b *browser) removeTarget(t *target) {
	i := slices.Index(b.targets, t)
	if i < 0 {
		return // closed already by someone else
	}
	b.targets = slices.Delete(b.targets, i, i+1)
	for c := range b.conns {
		if c.page == t {
			c.event("Inspector.detached", reasonParams{"target_closed"})
			c.close()
			continue
		}
		for sessionID, st := range c.sessions {
			if st == t {
				b.detach(c, sessionID)
			}
		}
		if c.discover {
			c.event("Target.targetDestroyed", targetIDParams{t.id})
		}
	}
}

func (b *browser) addConn(c *conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.conns[c] = true
}

func (b *browser) removeConn(c *conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endConn(c)
}

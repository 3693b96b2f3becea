package journal

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
)

// Tap is one client's side of a world's journal, a stage of the client's
// relay (stage.go): it sees each request and answer, and hands the journal
// one entry per command, with its method, its target, Page.navigate's URL
// and the answer. Safe for the relay's two readers and its actor at once: a
// lock, not a mailbox, since a hand-off per frame is what the relay's fast
// path saves.
type Tap struct {
	j      *Actor
	world  string
	client Client

	mu       sync.Mutex
	pending  map[int64]pendingCommand
	sessions map[string]string // the client's sessions' targets
	urls     map[string]string // the URL each page of the world was last seen at
	methods  map[string]string // the method names seen: one string each, not one per command
}

// pendingCommand is a request awaiting its answer.
type pendingCommand struct {
	at     time.Time
	method string
	target string
	url    string
}

// Tap makes the journal tap of a client of world.
func (a *Actor) Tap(world string, client Client) *Tap {
	return &Tap{j: a, world: world, client: client, pending: map[int64]pendingCommand{}, sessions: map[string]string{}, urls: map[string]string{}, methods: map[string]string{}}
}

// request notes a client request (its head: id, method, sessionId; msg
// only for the few parameters read: Page.navigate's url, a Target
// command's targetId).
func (t *Tap) request(id int64, method, session, msg []byte) {
	p := pendingCommand{at: time.Now()}
	switch {
	case bytes.Equal(method, []byte("Page.navigate")):
		p.url = param(msg).URL
	case bytes.HasPrefix(method, []byte("Target.")):
		p.target = param(msg).TargetID
	}
	t.mu.Lock()
	if p.method = t.methods[string(method)]; p.method == "" && len(t.methods) < maxMethods {
		p.method = string(method)
		t.methods[p.method] = p.method
	} else if p.method == "" {
		p.method = string(method)
	}
	if p.target == "" && len(session) > 0 {
		if p.target = t.sessions[string(session)]; p.target == "" {
			// Not seen attached: named by the session, kept so as to be
			// made once (Attached replaces it).
			p.target = "session " + string(session)
			if len(t.sessions) < maxSessions {
				t.sessions[string(session)] = p.target
			}
		}
	}
	t.pending[id] = p
	t.mu.Unlock()
}

// maxMethods and maxSessions bound the method names and sessions a tap
// keeps (a client may send any).
const (
	maxMethods  = 512
	maxSessions = 4096
)

// param reads the only parameters a journal keeps.
func param(msg []byte) (p struct {
	URL      string `json:"url"`
	TargetID string `json:"targetId"`
}) {
	var m struct {
		Params *struct {
			URL      string `json:"url"`
			TargetID string `json:"targetId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) == nil && m.Params != nil {
		p.URL, p.TargetID = m.Params.URL, m.Params.TargetID
	}
	return p
}

// answer notes the browser's (or the relay's) answer to request id;
// failed: the answer has an "error" member, whose message msg holds.
func (t *Tap) answer(id int64, failed bool, msg []byte) {
	t.mu.Lock()
	p, ok := t.pending[id]
	delete(t.pending, id)
	t.mu.Unlock()
	if !ok {
		return
	}
	e := t.entry(p)
	if failed {
		e.Answer, e.Error = AnswerError, errorMessage(msg)
	} else {
		e.Answer = AnswerOK
	}
	t.record(e)
}

func (t *Tap) entry(p pendingCommand) Entry {
	return Entry{Time: p.at, World: t.world, Client: &t.client, Kind: KindCommand, Method: p.method, Target: p.target, URL: p.url}
}

func errorMessage(msg []byte) string {
	var m struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(msg, &m)
	return m.Error.Message
}

// attached notes that session is the client's session on target; detached
// forgets it.
func (t *Tap) attached(session, target string) {
	t.mu.Lock()
	t.sessions[session] = target
	t.mu.Unlock()
}

func (t *Tap) detached(session string) {
	t.mu.Lock()
	delete(t.sessions, session)
	t.mu.Unlock()
}

// navigated notes a page of the world at url (its target's news): a
// navigation entry when the URL changed, whoever made it (a click, a
// script, Page.navigate).
func (t *Tap) navigated(target, url string) {
	t.mu.Lock()
	changed := t.urls[target] != url
	t.urls[target] = url
	t.mu.Unlock()
	if changed && url != "" {
		t.record(Entry{World: t.world, Client: &t.client, Kind: KindNavigation, Target: target, URL: url})
	}
}

// denied notes a request of the client the world's wall refused: its
// method, what it asked for (a URL or a file's path) and the rule that
// refused it.
func (t *Tap) denied(method, what, rule string) {
	t.record(Entry{World: t.world, Client: &t.client, Kind: KindDenied, Method: method, URL: what, Note: rule})
}

// Denied records a door of world refused by no client's relay (a page's
// own load, a world's HTTP request): method, what was asked, the rule.
func (a *Actor) Denied(world, method, what, rule string) {
	a.Record(Entry{World: world, Kind: KindDenied, Method: method, URL: what, Note: rule})
}

// gone forgets a target of the world that was destroyed.
func (t *Tap) gone(target string) {
	t.mu.Lock()
	delete(t.urls, target)
	t.mu.Unlock()
}

// Close records the commands the browser never answered: the client left
// first, or its relay ended.
func (t *Tap) Close() {
	t.mu.Lock()
	left := t.pending
	t.pending = map[int64]pendingCommand{}
	t.mu.Unlock()
	for _, p := range left {
		e := t.entry(p)
		e.Error = "no answer: the client's connection ended first"
		t.record(e)
	}
}

// record hands e on; the journal counts what it drops.
func (t *Tap) record(e Entry) { t.j.Record(e) }

package relay

import (
	"cmp"
	"slices"
	"sync"

	"github.com/cdpvisor/cdpvisor/transport"
)

// inflightTable holds the client's requests the browser has not answered
// yet, each message kept (its pooled buffer, no copy) so that it can be
// sent again to the next browser if this one goes first. On the fast path
// the client's reader adds and the browser's reader removes, concurrently,
// hence the lock; the actor uses it only while the fast path is off. A
// lock, not a mailbox: a hand-off per frame is what the fast path saves.
type inflightTable struct {
	mu   sync.Mutex
	reqs map[int64]inflight
	sent uint64 // requests sent, to keep their order
}

// inflight is one request awaiting its answer; watch: whether and when
// the actor reads the answer.
type inflight struct {
	seq   uint64
	msg   *transport.Message
	watch watching
}

// watching says whether the actor reads a request's answer, and when.
type watching uint8

const (
	unwatched   watching = iota
	watchAfter           // the actor notes it after the client has it (its books may lag a moment)
	watchBefore          // the actor reads it before the client does: what the client does next counts on it
)

func newInflightTable() *inflightTable {
	return &inflightTable{reqs: make(map[int64]inflight, 64)}
}

// add records msg as sent under id; the table owns it from now on. A
// client that reuses an id gets the browser's answer to the later one.
func (t *inflightTable) add(id int64, msg *transport.Message, watch watching) {
	t.mu.Lock()
	t.sent++
	old, dup := t.reqs[id]
	t.reqs[id] = inflight{seq: t.sent, msg: msg, watch: watch}
	t.mu.Unlock()
	if dup {
		old.msg.Release()
	}
}

// answered forgets the request id, which the browser answered, and says
// whether the actor watches its answer.
func (t *inflightTable) answered(id int64) watching {
	t.mu.Lock()
	req, ok := t.reqs[id]
	delete(t.reqs, id)
	t.mu.Unlock()
	if ok {
		req.msg.Release()
	}
	return req.watch
}

// answeredOnFastPath is answered for the fast path, which forwards only
// what the actor need not read first: a request watched before the client
// stays in the table, and the reader hands its answer to the actor.
func (t *inflightTable) answeredOnFastPath(id int64) watching {
	t.mu.Lock()
	req, ok := t.reqs[id]
	if ok && req.watch != watchBefore {
		delete(t.reqs, id)
	}
	t.mu.Unlock()
	if ok && req.watch != watchBefore {
		req.msg.Release()
	}
	return req.watch
}

// withdraw takes back msg, recorded under id by a write that failed: the
// caller hands it on instead.
func (t *inflightTable) withdraw(id int64, msg *transport.Message) {
	t.mu.Lock()
	if req, ok := t.reqs[id]; ok && req.msg == msg {
		delete(t.reqs, id)
	}
	t.mu.Unlock()
}

// takeAll empties the table and returns its messages in the order they
// were sent.
func (t *inflightTable) takeAll() []*transport.Message {
	t.mu.Lock()
	reqs := make([]inflight, 0, len(t.reqs))
	for _, req := range t.reqs {
		reqs = append(reqs, req)
	}
	clear(t.reqs)
	t.mu.Unlock()
	slices.SortFunc(reqs, func(a, b inflight) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]*transport.Message, len(reqs))
	for i, req := range reqs {
		out[i] = req.msg
	}
	return out
}

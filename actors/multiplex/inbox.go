package multiplex

import (
	"errors"
	"sync"

	"github.com/cdpvisor/cdpvisor/transport"
)

// maxQueued bounds what a session may have waiting for its reader: a
// client that reads nothing while its pages talk ends its session instead
// of growing cdpvisor without end (the pipe is shared: the connection
// never waits for one client).
var maxQueued = 256 << 20 // a variable for tests

// errOverflow ends a session whose client did not read its messages.
var errOverflow = errors.New("the client did not read its messages: more than 256 MB were waiting for it")

// inbox is a session's queue between the connection's reader, which never
// waits for a client, and the session's reader. It also holds the child
// sessions the session owns, which its writer checks.
type inbox struct {
	mu       sync.Mutex
	items    []*transport.Message
	head     int
	queued   int
	err      error           // set once: no more messages
	children map[string]bool // child sessions the browser attached for this session
	ready    chan struct{}   // a message or the end may be there
}

func newInbox() *inbox {
	return &inbox{children: map[string]bool{}, ready: make(chan struct{}, 1)}
}

// push queues m; false (m released) when the inbox is closed or overflows.
func (b *inbox) push(m *transport.Message) bool {
	b.mu.Lock()
	if b.err != nil {
		b.mu.Unlock()
		m.Release()
		return false
	}
	b.items = append(b.items, m)
	b.queued += len(m.B)
	over := b.queued > maxQueued
	b.mu.Unlock()
	b.wake()
	return !over
}

// pop waits for the next message, or the error that closed the inbox
// once the messages before it are taken.
func (b *inbox) pop() (*transport.Message, error) {
	for {
		b.mu.Lock()
		if b.head < len(b.items) {
			m := b.items[b.head]
			b.items[b.head] = nil
			b.head++
			b.queued -= len(m.B)
			if b.head == len(b.items) {
				b.items, b.head = b.items[:0], 0
			}
			b.mu.Unlock()
			return m, nil
		}
		err := b.err
		b.mu.Unlock()
		if err != nil {
			return nil, err
		}
		<-b.ready
	}
}

// close ends the inbox with err (the first error stays); what is queued
// is still read unless discard.
func (b *inbox) close(err error, discard bool) {
	b.mu.Lock()
	if b.err == nil {
		b.err = err
	}
	if discard {
		for _, m := range b.items[b.head:] {
			m.Release()
		}
		b.items, b.head, b.queued = nil, 0, 0
	}
	b.mu.Unlock()
	b.wake()
}

func (b *inbox) wake() {
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// own and disown keep the child sessions; owns is the writer's check.
func (b *inbox) own(id string) {
	b.mu.Lock()
	b.children[id] = true
	b.mu.Unlock()
}

func (b *inbox) disown(id string) {
	b.mu.Lock()
	delete(b.children, id)
	b.mu.Unlock()
}

func (b *inbox) owns(id []byte) bool {
	b.mu.Lock()
	ok := b.children[string(id)]
	b.mu.Unlock()
	return ok
}

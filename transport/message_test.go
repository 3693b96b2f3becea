package transport

import (
	"bytes"
	"testing"
)

// The pool keeps small buffers only; a large one waits in the bounded
// list for the next large message, which reuses it; past the list's room,
// or past largeCap, a buffer is let go. (A pool of buffers that keep the
// room of their largest message crept under load: the soak.)
func TestLargeBuffersAreKeptBoundedAndReused(t *testing.T) {
	for len(largeBuffers) > 0 { // what other tests left
		<-largeBuffers
	}
	for range largeKept + 4 {
		m := NewMessage()
		m.B = make([]byte, 0, 300<<10)
		m.Release()
	}
	huge := NewMessage()
	huge.B = make([]byte, 0, 4*largeCap)
	huge.Release()
	if got := len(largeBuffers); got != largeKept {
		t.Fatalf("%d large buffers kept, want %d (the list's room)", got, largeKept)
	}
	for range 200 {
		if m := NewMessage(); cap(m.B) > smallCap {
			t.Fatalf("the pool gave a buffer of %d bytes, more than %d", cap(m.B), smallCap)
		}
	}

	body := bytes.Repeat([]byte("x"), 200<<10)
	m := NewMessage()
	if err := m.readAll(bytes.NewReader(body), 1<<30); err != nil || !bytes.Equal(m.B, body) {
		t.Fatalf("readAll: %v, %d bytes", err, len(m.B))
	}
	if cap(m.B) != 300<<10 || len(largeBuffers) != largeKept-1 {
		t.Errorf("a 200 KB message went into a buffer of %d bytes (%d left in the list), want a kept 300 KB one", cap(m.B), len(largeBuffers))
	}
	m.Release()
}

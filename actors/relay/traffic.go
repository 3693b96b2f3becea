package relay

import (
	"io"
	"sync/atomic"
)

// Traffic counts what relays forward, for the metrics. Atomic counters, not
// messages to an actor: the frame path must not wait on anything, and one
// uncontended atomic add per frame costs nothing beside a websocket write.
// A nil *Traffic counts nothing.
type Traffic struct {
	ToBrowserMessages, ToBrowserBytes atomic.Int64
	ToClientMessages, ToClientBytes   atomic.Int64
	// HandedOver counts messages the fast path left to the relay's actor.
	HandedOver atomic.Int64
}

func (t *Traffic) toBrowser(n int) {
	if t != nil {
		t.ToBrowserMessages.Add(1)
		t.ToBrowserBytes.Add(int64(n))
	}
}

func (t *Traffic) toClient(n int64) {
	if t != nil {
		t.ToClientMessages.Add(1)
		t.ToClientBytes.Add(n)
	}
}

func (t *Traffic) handedOver() {
	if t != nil {
		t.HandedOver.Add(1)
	}
}

// countingReader counts the bytes of a streamed message; one lives in each
// relay run and is reused, so streaming allocates nothing.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

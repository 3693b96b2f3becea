package liveview

import (
	"sync/atomic"
	"time"
)

// gate is a world's hold as its relays' hold stages read it (hold.go):
// taken and handed back by the actor alone, read by the relays' fast paths
// without a mailbox.
type gate struct {
	back  atomic.Pointer[chan struct{}] // nil: nobody holds the world; closed when handed back
	acted atomic.Int64                  // unix ns of its clients' last input or navigation
}

// Held says whether a human holds the world now and, when one does, a
// channel closed when they hand it back.
func (g *gate) Held() (bool, <-chan struct{}) {
	p := g.back.Load()
	if p == nil {
		return false, nil
	}
	return true, *p
}

// Acted notes that a client of the world sent input or navigation (the
// world most recently active, for a request without a world).
func (g *gate) Acted() { g.acted.Store(time.Now().UnixNano()) }

// take holds the world; only the actor calls it.
func (g *gate) take() {
	if g.back.Load() == nil {
		ch := make(chan struct{})
		g.back.Store(&ch)
	}
}

// handBack releases the world: what its relays held goes on, in order.
func (g *gate) handBack() {
	if p := g.back.Swap(nil); p != nil {
		close(*p)
	}
}

func (g *gate) held() bool { return g.back.Load() != nil }

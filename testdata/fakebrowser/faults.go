package main

import (
	"os"
	"time"
)

// countMessage counts CDP messages over all connections. The
// --fake-crash-after'th one is never answered: the process dies on it,
// closing nothing, so websocket clients see an abnormal close (1006).
// Over the pipe only messages with a sessionId count: the root is where a
// multiplexer checks readiness, opens sessions and answers /json/*, which
// over the port were HTTP and websocket handshakes, never counted.
func (b *browser) countMessage() {
	if b.opts.crashAfter <= 0 {
		return
	}
	n := b.received.Add(1)
	if n < int64(b.opts.crashAfter) {
		return
	}
	if n > int64(b.opts.crashAfter) {
		select {} // another goroutine is crashing the process
	}
	if b.opts.detachBeforeCrash {
		b.sayRendererGone()
		time.Sleep(50 * time.Millisecond)
	}
	os.Exit(1)
}

// sayRendererGone sends what a client of a crashing browser may get before
// the connection drops.
func (b *browser) sayRendererGone() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.conns {
		if c.page != nil {
			continue
		}
		c.event("Inspector.detached", reasonParams{"Render process gone."})
		for sessionID, t := range c.sessions {
			c.event("Target.detachedFromTarget", detachedParams{sessionID, t.id})
		}
	}
}

package relay

import (
	"io"
	"sync"

	"github.com/rs/zerolog"

	"github.com/cdpvisor/cdpvisor/transport"
)

// fastPath is how frames cross a connected relay: each reader writes what
// it read straight to the other end, with no hand-off to the actor between
// them. It is a mode of the connection machine, not a second authority: the
// actor switches it on when the connection is connected and off before it
// acts on anything (a message the readers cannot forward, the browser's
// end, a recovery, closing), and only the actor switches it. Whatever the
// fast path does not forward, the reader hands to the actor and waits until
// it was handled, so nothing overtakes it.
//
// The gate is a read-write lock, held shared by a reader for the span of
// one forward and exclusively by the actor to switch: after set returns,
// no reader is writing, so the actor may write to either end.
type fastPath struct {
	gate sync.RWMutex
	on   bool         // guarded by gate
	link *browserLink // the browser connection forwarded to; guarded by gate

	dialect  dialect
	inflight *inflightTable
	client   transport.Conn
	traffic  *Traffic
	log      zerolog.Logger
	trace    bool // log each frame's head (trace level)
	// closeHook: Browser.close goes to the actor, which answers it itself.
	closeHook bool
	// stages: the relay's stages (stage.go), nil when it has none: a
	// frame one claims goes to the actor, and the observers see the rest.
	stages   []Stage
	streamed countingReader // the browser reader's, counts a streamed message
}

// set switches the fast path on, to link, or off (nil). Only the actor
// calls it; it waits for a forward under way to finish.
func (f *fastPath) set(link *browserLink) {
	f.gate.Lock()
	f.link, f.on = link, link != nil
	f.gate.Unlock()
}

// toBrowser forwards a client message (fr.Msg) to the browser and reports
// whether it did. Subscriptions (which the actor records for a recovery), a
// Browser.close the relay answers itself and what a stage claims are left to
// the actor, as is every message while the fast path is off or after a
// failed write. fr is the client reader's own: its head is scanned into it,
// so that a frame allocates nothing.
func (f *fastPath) toBrowser(fr *Frame) bool {
	m, h := fr.Msg, &fr.Head
	*h, _ = transport.ScanHead(m.B)
	if f.dialect.kept(h) || (f.closeHook && f.dialect.closesBrowser(h)) {
		return false
	}
	f.gate.RLock()
	if !f.on {
		f.gate.RUnlock()
		return false
	}
	var observers uint64
	if f.stages != nil {
		var claimed bool
		if observers, claimed = looks(f.stages, fr); claimed {
			f.gate.RUnlock()
			return false
		}
	}
	size := len(m.B)
	if f.trace {
		traceFrame(f.log, toBrowser, h, int64(size))
	}
	if observers != 0 {
		observe(f.stages, fr, observers) // before the write: the answer may come before Write returns
	}
	if h.HasID {
		// Recorded before the write: the answer can come before Write
		// returns. From here the table owns m; the browser's reader may
		// release it at any time.
		f.inflight.add(h.ID, m, unwatched)
	}
	err := f.link.conn.Write(m.B, m.Binary)
	if err != nil && h.HasID {
		f.inflight.withdraw(h.ID, m) // still under the gate: the actor has not taken the table
	}
	f.gate.RUnlock()
	if err != nil {
		return false // the actor sends it again, finds the browser gone, and keeps it for the next one
	}
	f.traffic.toBrowser(size)
	schedulerAwake.touch()
	if !h.HasID {
		m.Release()
	}
	return true
}

// forwardResult is what toClient did with a browser message.
type forwardResult int

const (
	notForwarded  forwardResult = iota // the actor handles it
	forwarded                          // sent and released
	forwardedNote                      // sent; the actor notes it in its books and releases it
	forwardFailed                      // the client write or the browser's stream failed
)

// toClient forwards a browser message (fr.Msg) from link to the client; a
// huge one (rest not nil) is streamed on while it arrives. Answers to the
// relay's own requests, what a stage claims and everything while off go to
// the actor. fr is link's reader's own.
func (f *fastPath) toClient(link *browserLink, fr *Frame, rest io.Reader) (forwardResult, error) {
	f.gate.RLock()
	defer f.gate.RUnlock()
	if !f.on || f.link != link {
		return notForwarded, nil
	}
	m, h := fr.Msg, &fr.Head
	if rest == nil {
		*h, _ = transport.ScanHead(m.B)
	} else {
		*h, _ = transport.ScanHeadPrefix(m.B) // an answer's id comes first
	}
	if h.HasID && f.dialect.ownID(h.ID) {
		return notForwarded, nil
	}
	var observers uint64
	if f.stages != nil {
		fr.Partial = rest != nil
		var claimed bool
		if observers, claimed = looks(f.stages, fr); claimed {
			return notForwarded, nil
		}
	}
	result := forwarded
	if h.HasID {
		switch f.inflight.answeredOnFastPath(h.ID) {
		case watchBefore:
			return notForwarded, nil // the actor reads it, then forwards it
		case watchAfter:
			if rest == nil {
				result = forwardedNote // the actor's setup reads it
			}
		}
	} else if rest == nil && f.dialect.noted(h) {
		result = forwardedNote
	}
	if observers != 0 {
		observe(f.stages, fr, observers) // before the client has it: its next request comes after
	}
	n := int64(len(m.B))
	var err error
	if rest == nil {
		if f.trace {
			traceFrame(f.log, toClient, h, n)
		}
		err = f.client.Write(m.B, m.Binary)
	} else {
		f.streamed = countingReader{r: rest}
		err = f.client.WriteStream(m.B, &f.streamed, m.Binary)
		n += f.streamed.n
		f.streamed.r = nil
		if err == nil && f.trace {
			traceFrame(f.log, toClient, h, n) // its head is in the first bytes, still held
		}
	}
	if err != nil {
		m.Release()
		return forwardFailed, err
	}
	f.traffic.toClient(n)
	if result == forwarded {
		m.Release()
	}
	return result, nil
}

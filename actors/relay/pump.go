package relay

import (
	"io"

	"github.com/cdpvisor/cdpvisor/transport"
)

// readResult is what a reader hands the actor: a message the fast path did
// not forward (a huge browser message as its first bytes and the rest,
// still on the wire), a message already forwarded for the actor's books
// (note), or the end of its connection (err), or a forward that failed
// (forwardErr). Unless it is a note, the reader waits on handled before it
// reads on: the actor signals it once done with the message.
type readResult struct {
	link       *browserLink // nil for the client
	msg        *transport.Message
	rest       io.Reader
	err        error
	forwardErr error
	note       bool
	handled    chan struct{}
}

// done tells the reader that the actor is through with r.
func (r readResult) done() {
	if r.handled != nil {
		r.handled <- struct{}{} // buffered: never blocks
	}
}

// streamAfter is the size past which a browser message is passed on while
// it is still arriving, instead of being held whole first.
const streamAfter = 64 << 10

// clientReader reads the client until it ends: each message goes straight
// to the browser while the fast path is on, else to the actor.
func (run *relayRun) clientReader() {
	conn := run.r.spec.Client
	handled := make(chan struct{}, 1) // one for the reader: a hand-off allocates nothing
	fr := &Frame{Dir: ToBrowser}      // the fast path's, one for the reader: a frame allocates nothing
	for {
		m := transport.NewMessage()
		err := conn.Read(m)
		fr.Msg = m
		if err == nil && run.fast.toBrowser(fr) {
			continue
		}
		r := readResult{msg: m, err: err, handled: handled}
		if err != nil {
			m.Release()
			r.msg = nil
		}
		if !run.handOver(run.fromClient, r) || err != nil {
			return
		}
	}
}

// browserReader reads one browser connection until it ends, forwarding to
// the client while the fast path is on, else handing to the actor.
func (run *relayRun) browserReader(link *browserLink) {
	handled := make(chan struct{}, 1)
	fr := &Frame{Dir: ToClient}
	for {
		m := transport.NewMessage()
		rest, err := link.conn.ReadStream(m, streamAfter)
		fr.Msg = m
		if err == nil {
			switch result, ferr := run.fast.toClient(link, fr, rest); result {
			case forwarded:
				continue
			case forwardedNote:
				if !run.post(run.fromBrowser, readResult{link: link, msg: m, note: true}) {
					return
				}
				continue
			case forwardFailed:
				run.handOver(run.fromBrowser, readResult{link: link, forwardErr: ferr, handled: handled})
				return
			}
		}
		r := readResult{link: link, msg: m, rest: rest, err: err, handled: handled}
		if err != nil {
			m.Release()
			r.msg = nil
		}
		if !run.handOver(run.fromBrowser, r) || err != nil {
			return
		}
	}
}

// handOver gives r to the actor and waits until it was handled (for a huge
// message: until the actor copied the rest off the wire). false: the relay
// is over.
func (run *relayRun) handOver(out chan<- readResult, r readResult) bool {
	if r.msg != nil {
		run.r.spec.Traffic.handedOver()
	}
	if !run.post(out, r) {
		return false
	}
	select {
	case <-r.handled:
		return true
	case <-run.quit:
		return false
	}
}

// post puts r in the actor's mailbox; false (r released) when the relay
// is over.
func (run *relayRun) post(out chan<- readResult, r readResult) bool {
	select {
	case out <- r:
		return true
	case <-run.quit:
		if r.msg != nil {
			r.msg.Release()
		}
		return false
	}
}

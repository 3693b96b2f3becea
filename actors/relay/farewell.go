package relay

import (
	"time"

	"github.com/cdpvisor/cdpvisor/transport"
)

// farewellTimeout bounds the wait for the browser to take the farewell.
const farewellTimeout = 2 * time.Second

// farewell sends the browser what the leaving client's setup asks for (a
// BiDi session.end) and waits until it is answered, the browser goes, or
// farewellTimeout: Firefox drops a request whose socket closes under it.
// The client is closed already; the browser's other messages are dropped.
func (run *relayRun) farewell() {
	id := run.internalID()
	bye := run.setup.farewell(id)
	if bye == nil {
		return
	}
	run.pause()
	if run.link.conn.Write(bye, false) != nil {
		return
	}
	timer := time.NewTimer(farewellTimeout)
	defer timer.Stop()
	for {
		select {
		case m := <-run.fromBrowser:
			done := m.err != nil || m.forwardErr != nil
			if m.msg != nil {
				h, _ := transport.ScanHeadPrefix(m.msg.B)
				done = done || (m.link == run.link && h.HasID && h.ID == id)
				m.msg.Release()
			}
			if !m.note {
				m.done()
			}
			if done {
				return
			}
		case <-timer.C:
			run.log.Warn().Msg("the browser did not answer the end of the leaving client's session")
			return
		case <-run.ctx.Done():
			return // shutting down: the browser goes too
		}
	}
}

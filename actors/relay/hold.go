package relay

import (
	"strings"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// HumanHold is a human's hold on the world a relay's client lives in (the live
// view's takeover, decided by actors/liveview): while it is held, the
// client's input and navigation wait, in their order, until the human hands
// the world back; its reads go on. Both methods are called on the fast
// path: no mailbox behind them.
type HumanHold interface {
	// Held says whether a human holds the world now and, when one does, a
	// channel closed when they hand it back.
	Held() (bool, <-chan struct{})
	// Acted notes that a client of the world sent input or navigation (the
	// world most recently active, for a request without a world).
	Acted()
}

// navigatesPage are the requests that start a page's next document.
var navigatesPage = map[string]bool{
	"Page.navigate":               true,
	"Page.reload":                 true,
	"Page.navigateToHistoryEntry": true,
}

// closesPage are the requests that close a page.
var closesPage = map[string]bool{
	"Page.close":         true,
	"Target.closeTarget": true,
}

// heldByHuman says a client request is input, navigation or a page's
// close, which wait while a human holds the world.
func heldByHuman(h *transport.Head) bool {
	if !h.HasID {
		return false
	}
	m := string(h.Method)
	return strings.HasPrefix(m, "Input.") || navigatesPage[m] || closesPage[m]
}

// waitForHuman takes a client's input or navigation while the world is held
// (or while earlier ones still wait: none overtakes another) and reports
// whether it did.
func (run *relayRun) waitForHuman(msg *transport.Message, h *transport.Head) bool {
	hold := run.r.spec.Hold
	if hold == nil || !heldByHuman(h) {
		return false
	}
	hold.Acted()
	if len(run.forHuman) == 0 {
		held, handedBack := hold.Held()
		if !held {
			return false
		}
		run.handedBack = handedBack
		run.log.Info().Bytes("method", h.Method).Msg("a human holds the world: the client's input and navigation wait")
	}
	run.forHuman = append(run.forHuman, msg)
	return true
}

// handBack sends what waited for the human, in order, now that the world is
// handed back (or held again: then it waits on).
func (run *relayRun) handBack() {
	waiting := run.forHuman
	run.forHuman, run.handedBack = nil, nil
	run.log.Info().Int("requests", len(waiting)).Msg("the world was handed back: the client's input and navigation go on")
	for i, m := range waiting {
		if !run.machine.Is(fsm.ConnConnected) || run.link == nil {
			run.queue = append(run.queue, waiting[i:]...) // the browser went meanwhile: the recovery sends them
			if run.machine.Is(fsm.ConnDegraded) {
				run.recover()
			}
			return
		}
		h, _ := transport.ScanHead(m.B)
		run.send(m, &h) // held again meanwhile: it waits again, and the rest behind it
	}
}

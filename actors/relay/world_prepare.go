package relay

import (
	"context"

	"github.com/cdpvisor/cdpvisor/fsm"
	"github.com/cdpvisor/cdpvisor/transport"
)

// A page a world's client makes is prepared by the world (its storage
// followed, its kept origins' localStorage planted: World.PreparePage)
// while the client goes on: the client hears of the page at once and sets
// it up beside the world; only its navigation waits until the page is
// prepared, so that the page's first document finds what the world keeps.
// Before, the client was not answered Target.createTarget until then: the
// world's round trips with the page came on top of the client's own.

// navigatesPage are the requests that start a page's next document.
var navigatesPage = map[string]bool{
	"Page.navigate":               true,
	"Page.reload":                 true,
	"Page.navigateToHistoryEntry": true,
}

// prepare has the world prepare a page its client made, off the actor;
// pagePrepared follows in the actor.
func (run *relayRun) prepare(target string) {
	f := run.world
	if f.preparing == nil {
		f.preparing = map[string]bool{}
	}
	f.preparing[target] = true
	gen := f.gen
	run.goThen(func(ctx context.Context) func() {
		f.w.PreparePage(ctx, gen, target)
		return func() { run.pagePrepared(target) }
	})
}

// waitForPreparation takes a client request that navigates while a page
// is being prepared (or any request, while earlier ones wait: none
// overtakes another) and reports whether it did.
func (f *worldFilter) waitForPreparation(msg *transport.Message, h *transport.Head) bool {
	if len(f.preparing) == 0 || (len(f.beforePrepared) == 0 && !(h.HasID && navigatesPage[string(h.Method)])) {
		return false
	}
	f.beforePrepared = append(f.beforePrepared, msg)
	return true
}

// pagePrepared sends what waited, in order, once no page is being
// prepared any more.
func (run *relayRun) pagePrepared(target string) {
	f := run.world
	delete(f.preparing, target)
	if len(f.preparing) > 0 || len(f.beforePrepared) == 0 {
		return
	}
	waiting := f.beforePrepared
	f.beforePrepared = nil
	for i, m := range waiting {
		if run.link == nil || !run.machine.Is(fsm.ConnConnected) {
			run.queue = append(run.queue, waiting[i:]...) // the browser went meanwhile: the recovery sends them
			return
		}
		h, _ := transport.ScanHead(m.B)
		run.sendOn(m, &h, nil) // past the stages already: on to the wall
	}
}

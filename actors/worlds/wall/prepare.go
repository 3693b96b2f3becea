package wall

import (
	"context"

	"github.com/cdpvisor/cdpvisor/actors/relay"
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
// prepared follows in the actor.
func (f *Wall) prepare(l *relay.Line, target string) {
	if f.preparing == nil {
		f.preparing = map[string]bool{}
	}
	f.preparing[target] = true
	gen := f.gen
	l.Go(func(ctx context.Context) func(*relay.Line) {
		f.w.PreparePage(ctx, gen, target)
		return func(l *relay.Line) { f.prepared(l, target) }
	})
}

// waitForPreparation takes a client request that navigates while a page
// is being prepared (or any request, while earlier ones wait: none
// overtakes another) and reports whether it did.
func (f *Wall) waitForPreparation(msg *transport.Message, h *transport.Head) bool {
	if len(f.preparing) == 0 || (len(f.beforePrepared) == 0 && !(h.HasID && navigatesPage[string(h.Method)])) {
		return false
	}
	f.beforePrepared = append(f.beforePrepared, msg)
	return true
}

// prepared puts what waited through the wall again, in order, once no
// page is being prepared any more.
func (f *Wall) prepared(l *relay.Line, target string) {
	delete(f.preparing, target)
	if len(f.preparing) > 0 || len(f.beforePrepared) == 0 {
		return
	}
	waiting := f.beforePrepared
	f.beforePrepared = nil
	for _, m := range waiting {
		f.again(l, m)
	}
}

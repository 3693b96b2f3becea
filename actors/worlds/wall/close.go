package wall

import (
	"context"
	"fmt"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// Greet takes a client's Browser.close when it arrives, whatever the
// state of the browser connection: it must reach no browser (Greeter).
func (f *Wall) Greet(l *relay.Line, fr *relay.Frame) relay.Verdict {
	if ruleOf(&fr.Head) != closesBrowser {
		return relay.Pass
	}
	f.closeBrowser(l, &fr.Head)
	return relay.Answer
}

// closeBrowser is the client's Browser.close inside a world: the world's
// pages close, the browser and the other worlds go on; the client is
// answered and its connection closes, as after a real Browser.close.
func (f *Wall) closeBrowser(l *relay.Line, h *transport.Head) {
	ctx, cancel := context.WithTimeout(l.Context(), 2*askTimeout)
	err := f.w.CloseBrowser(ctx, l.Endpoint())
	cancel()
	if err != nil {
		l.Log().Warn().Err(err).Str("world", f.w.Name()).Msg("the world's pages were not all closed")
	}
	l.Log().Info().Str("world", f.w.Name()).Msg("Browser.close in a world: its pages closed, the browser stays")
	l.Answer(transport.AppendSession(fmt.Appendf(nil, `{"id":%d,"result":{}`, h.ID), h.SessionID), nil)
	l.Close(1000, "")
}

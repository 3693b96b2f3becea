package liveview

import (
	"context"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// hold is a human's hold on a world as a stage of each of the world's
// client relays (relay.Stage): while the human holds the world (its gate),
// the client's input, navigation and page closes wait, in their order,
// until the world is handed back; its reads go on. It observes them all,
// for the world most recently active (gate.Acted). Its state is its
// relay's actor's: Handle and the hand-back change it while the fast path
// is off, Look reads it on the fast path.
type hold struct {
	g    *gate
	held []*transport.Message // what waits for the hand-back, in order
}

// Holds makes the hold stage of each world client's relay of an instance;
// nil (no stage) when the live view is stopping.
func (a *Actor) Holds(instance string) func(ctx context.Context, world string, id int64) relay.Stage {
	return func(ctx context.Context, world string, _ int64) relay.Stage {
		g, err := a.gateOf(ctx, instance, world)
		if err != nil {
			return nil
		}
		return &hold{g: g}
	}
}

// Look observes the client's input and navigation, and claims them while
// the world is held or earlier ones still wait: none overtakes another.
func (s *hold) Look(f *relay.Frame) relay.Look {
	if f.Dir != relay.ToBrowser || !heldByHuman(&f.Head) {
		return 0
	}
	if len(s.held) > 0 || s.g.held() {
		return relay.Observe | relay.Claim
	}
	return relay.Observe
}

// Observe notes the client's input or navigation: its world is the most
// recently active.
func (s *hold) Observe(*relay.Frame) { s.g.Acted() }

// Handle keeps the client's input or navigation while the world is held.
func (s *hold) Handle(l *relay.Line, f *relay.Frame) relay.Verdict {
	if len(s.held) == 0 && !s.wait(l, &f.Head) {
		return relay.Pass
	}
	s.held = append(s.held, f.Msg)
	return relay.Hold
}

// wait starts waiting for the world to be handed back, when it is held:
// the hand-back runs in the relay's actor then.
func (s *hold) wait(l *relay.Line, h *transport.Head) bool {
	held, back := s.g.Held()
	if !held {
		return false
	}
	l.Log().Info().Bytes("method", h.Method).Msg("a human holds the world: the client's input and navigation wait")
	l.Go(func(ctx context.Context) func(*relay.Line) {
		select {
		case <-back:
			return s.handBack
		case <-ctx.Done():
			return nil
		}
	})
	return true
}

// handBack sends on what waited for the human, in order, now that the world
// is handed back; held again meanwhile, the rest waits again.
func (s *hold) handBack(l *relay.Line) {
	waiting := s.held
	s.held = nil
	l.Log().Info().Int("requests", len(waiting)).Msg("the world was handed back: the client's input and navigation go on")
	for i, m := range waiting {
		if h, _ := transport.ScanHead(m.B); s.wait(l, &h) {
			s.held = waiting[i:]
			return
		}
		l.Send(relay.ToBrowser, m)
	}
}

// Close releases what still waits: the client is gone.
func (s *hold) Close() {
	for _, m := range s.held {
		m.Release()
	}
	s.held = nil
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

package pacing

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/cdpvisor/cdpvisor/actors/relay"
	"github.com/cdpvisor/cdpvisor/transport"
)

// loadStage paces the page loads of one world client (relay.Stage): a
// load waits for a slot of its instance before it goes to the browser,
// and holds it until its page says it loaded (Page.loadEventFired), its
// answer says there is nothing to load (an error, a same-document move),
// or the bound. The frames the client sent on the same session after a
// waiting load wait behind it, in order; every other frame passes.
//
// Its maps belong to the relay's actor: Handle and the then of its waits
// change them, Look reads them (the relay's gate keeps the two apart).
type loadStage struct {
	a               *Actor
	instance, world string
	// lines are, by session, the frames waiting behind a load that waits
	// for its slot, the load first.
	lines map[string][]*transport.Message
	// asked are the loads sent, by request id, until their answer.
	asked map[int64]sentLoad
	// loading is, by session, the load whose page has not loaded yet.
	loading map[string]ticket
}

type sentLoad struct {
	t       ticket
	session string
	opens   bool // a new page with its URL: done at its answer
}

var _ relay.Stage = (*loadStage)(nil)

// stageOf makes the load stage of each world client's relay of an
// instance.
func (a *Actor) stageOf(instance string) func(ctx context.Context, world string, id int64) relay.Stage {
	return func(_ context.Context, world string, _ int64) relay.Stage { return newLoadStage(a, instance, world) }
}

func newLoadStage(a *Actor, instance, world string) *loadStage {
	return &loadStage{a: a, instance: instance, world: world,
		lines: map[string][]*transport.Message{}, asked: map[int64]sentLoad{}, loading: map[string]ticket{}}
}

// loadsPage are the requests that load a page's next document.
var loadsPage = map[string]bool{
	"Page.navigate":               true,
	"Page.reload":                 true,
	"Page.navigateToHistoryEntry": true,
}

func (s *loadStage) Look(f *relay.Frame) relay.Look {
	h := &f.Head
	if f.Dir == relay.ToBrowser {
		if !h.HasID {
			return 0
		}
		if len(s.lines) > 0 && len(s.lines[string(h.SessionID)]) > 0 {
			return relay.Claim // behind a load of its page that waits
		}
		if loadsPage[string(h.Method)] || h.Is("Target.createTarget") {
			return relay.Claim
		}
		return 0
	}
	if f.Partial || (len(s.asked) == 0 && len(s.loading) == 0) {
		return 0
	}
	if h.HasID && len(h.Method) == 0 {
		if _, ok := s.asked[h.ID]; ok {
			return relay.Claim
		}
		return 0
	}
	if h.Is("Page.loadEventFired") {
		if _, ok := s.loading[string(h.SessionID)]; ok {
			return relay.Claim
		}
	}
	return 0
}

func (s *loadStage) Observe(*relay.Frame) {}

func (s *loadStage) Handle(l *relay.Line, f *relay.Frame) relay.Verdict {
	h := &f.Head
	if f.Dir == relay.ToClient {
		s.heard(f)
		return relay.Pass
	}
	session := string(h.SessionID)
	if line := s.lines[session]; len(line) > 0 {
		s.lines[session] = append(line, f.Msg)
		return relay.Hold
	}
	if !isLoad(h, f.Msg.B) {
		return relay.Pass
	}
	if was, ok := s.asked[h.ID]; ok {
		// Sent again to the next browser after one was lost: its first
		// slot is done with.
		delete(s.asked, h.ID)
		s.a.release(was.t)
	}
	s.lines[session] = []*transport.Message{f.Msg}
	if !s.wait(l, session) {
		delete(s.lines, session)
		return relay.Pass
	}
	return relay.Hold
}

// wait puts the load first in its session's line in its turn, and waits
// for it off the relay's actor; the rest of the line goes once it may.
// False: the actor did not answer (it is stopping), the load is not
// paced.
func (s *loadStage) wait(l *relay.Line, session string) bool {
	g, err := s.a.ask(l.Context(), s.instance, s.world)
	if err != nil {
		l.Log().Debug().Err(err).Msg("a page load is not paced")
		return false
	}
	l.Go(func(ctx context.Context) func(*relay.Line) {
		if s.a.await(ctx, g) != nil {
			return nil
		}
		if ctx.Err() != nil {
			s.a.release(g.t) // its turn came as the client left
			return nil
		}
		return func(l *relay.Line) { s.letGo(l, session, g.t) }
	})
	return true
}

// letGo sends the load that had its slot, then what waited behind it, up to
// the next load, which waits for a slot of its own.
func (s *loadStage) letGo(l *relay.Line, session string, t ticket) {
	line := s.lines[session]
	delete(s.lines, session)
	for i, m := range line {
		h, _ := transport.ScanHead(m.B)
		if i > 0 && isLoad(&h, m.B) {
			s.lines[session] = line[i:]
			if s.wait(l, session) {
				return
			}
			delete(s.lines, session) // not paced: it goes with the rest
			t = 0
		}
		if i == 0 && t != 0 {
			s.asked[h.ID] = sentLoad{t: t, session: session, opens: h.Is("Target.createTarget")}
		}
		l.Send(relay.ToBrowser, m)
	}
}

// heard follows a load to its end: its answer, then its page's load.
func (s *loadStage) heard(f *relay.Frame) {
	h := &f.Head
	if len(h.Method) == 0 {
		sent, ok := s.asked[h.ID]
		if !ok {
			return
		}
		delete(s.asked, h.ID)
		// No loader: nothing loads (a move within the document, a
		// navigation refused, a new page's answer).
		if sent.opens || h.HasError || !bytes.Contains(f.Msg.B, []byte(`"loaderId"`)) || bytes.Contains(f.Msg.B, []byte(`"errorText"`)) {
			s.a.release(sent.t)
			return
		}
		if was, ok := s.loading[sent.session]; ok {
			s.a.release(was) // its load was cut short by this one
		}
		s.loading[sent.session] = sent.t
		return
	}
	session := string(h.SessionID)
	if t, ok := s.loading[session]; ok {
		delete(s.loading, session)
		s.a.release(t)
	}
}

// Close gives back every slot the client's loads held, and drops what
// waited: the client is gone.
func (s *loadStage) Close() {
	for _, sent := range s.asked {
		s.a.release(sent.t)
	}
	for _, t := range s.loading {
		s.a.release(t)
	}
	for _, line := range s.lines {
		for _, m := range line {
			m.Release()
		}
	}
	s.asked, s.loading, s.lines = nil, nil, nil
}

// isLoad says a client request loads a page: a navigation, a reload, a
// move in its history, or a new page opened at a URL (about:blank loads
// nothing worth pacing).
func isLoad(h *transport.Head, msg []byte) bool {
	if loadsPage[string(h.Method)] {
		return true
	}
	if !h.Is("Target.createTarget") {
		return false
	}
	var req struct {
		Params struct {
			URL string `json:"url"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &req) != nil {
		return false
	}
	return req.Params.URL != "" && req.Params.URL != "about:blank"
}

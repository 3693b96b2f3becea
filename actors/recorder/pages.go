package recorder

import (
	"time"

	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
)

// page is a page target of an instance's running browser.
type page struct {
	id, context, url string
	world            string // the world it is in; "": none, or not known yet
	session          string // the recorder's session on it; "": not attached
	attaching        bool
	acks             []pendingAck // its frames to acknowledge, in order
	// lastDue is when the last acknowledgement was (or is) due: the next
	// is due a frame's share of the budget later. The browser keeps more
	// than one frame in flight, so the schedule chains, not the sending.
	lastDue time.Time
	// The last frame: when it came, the page's size and scroll then.
	lastFrame        time.Time
	width, height    int
	scrollX, scrollY float64
	// owed: an acknowledgement was held back since the last frame, so the
	// browser may have skipped the page's last paint; a capture is owed
	// once it has been quiet for settle.
	owed, capturing bool
	// level is the frameLevels entry its frames are made at; small counts
	// the frames in a row small enough to go up, settling the frames
	// still of the level before.
	level, small, settling int
	requests               map[string]*pendingRequest
}

// pendingAck is a frame whose acknowledgement waits for its time: the
// browser sends the next frame once the last is acknowledged, so the pace
// of acknowledgements is the recording's frame rate.
type pendingAck struct {
	id  int
	due time.Time
}

// The screencast: JPEG at most 1280 wide (the page's own size when
// smaller), paced so that a page changing all the time is kept at about
// frameBudget bytes a second, and never less than a frame a second
// (framelevel.go makes the frames of a page that would not fit smaller).
const (
	frameMax    = 1280
	frameBudget = 64 << 10 // bytes a second
	maxAckGap   = 900 * time.Millisecond
)

// What the recorder asks of each page it records, on its own session.
var pageSetup = []struct {
	method string
	params map[string]any
}{
	{"Page.enable", nil},
	{"Runtime.enable", nil},
	{"Network.enable", map[string]any{"maxPostDataSize": 0}},
}

func (r *run) startSession(in *inst) {
	in.session = cdpsession.Start(*in.ep, in.news, sessionSpec())
	in.retry = time.Time{}
}

// sessionRetry is how soon a session that ended while its browser runs is
// opened again.
const sessionRetry = time.Second

// endSession closes the instance's session: its screencasts end with it.
func (r *run) endSession(in *inst) {
	if in.session == nil {
		return
	}
	in.session.Stop()
	in.session = nil
	clear(in.pages)
	clear(in.sessions)
	clear(in.attach)
	clear(in.captures)
	clear(in.contexts)
	clear(in.asked)
}

// sessionNews takes what the instance's session told; news of another
// session than the running one is stale.
func (r *run) sessionNews(in *inst, m feedNews) {
	s := in.session
	current := func(gen int) bool { return s != nil && s.Gen() == gen }
	switch m := m.(type) {
	case sessionOpened:
		r.a.spec.Log.Debug().Str("instance", in.ID).Int("generation", m.Gen).Bool("current", current(m.Gen)).Msg("recorder: session opened")
		if current(m.Gen) {
			s.Send("Target.setDiscoverTargets", map[string]any{"discover": true})
		}
	case sessionEnded:
		if current(m.Gen) {
			r.endSession(in)
			// The browser may run on (a dial that failed, a connection
			// dropped): the session is opened again shortly, by tick.
			in.retry = time.Now().Add(sessionRetry)
			r.a.spec.Log.Info().Err(m.Err).Str("instance", in.ID).Int("generation", m.Gen).Msg("the recorder's session with the browser ended; it opens again while the browser runs")
		}
	case targetNews:
		if current(m.gen) {
			r.targetNews(in, m)
		}
	case answerNews:
		if current(m.gen) {
			r.answered(in, m)
		}
	case detachedNews:
		if p := in.sessions[m.session]; current(m.gen) && p != nil {
			delete(in.sessions, m.session)
			p.session, p.acks = "", nil
		}
	case frameNews:
		if p := in.sessions[m.session]; current(m.gen) && p != nil {
			r.frame(in, p, m)
		}
	case pageNews:
		if p := in.sessions[m.session]; current(m.gen) && p != nil {
			r.pageNews(p, m)
		}
	case networkNews:
		if p := in.sessions[m.session]; current(m.gen) && p != nil {
			r.networkNews(p, m.method, m.ev)
		}
	default:
		r.a.spec.Log.Error().Str("news", typeName(m)).Msg("the recorder was told what it does not know")
	}
}

func (r *run) targetNews(in *inst, t targetNews) {
	if t.destroyed {
		if p := in.pages[t.id]; p != nil {
			delete(in.sessions, p.session)
			delete(in.pages, t.id)
		}
		return
	}
	if t.typ != "page" {
		return
	}
	p := in.pages[t.id]
	if p == nil {
		p = &page{id: t.id, requests: map[string]*pendingRequest{}}
		in.pages[t.id] = p
	}
	p.url = t.url
	if p.context == t.context && p.world != "" {
		return
	}
	p.context = t.context
	if w, known := in.contexts[t.context]; known && w != "" {
		p.world = w
		r.followPage(in, p)
		return
	}
	// Not known, or known as no world's: asked (again) on the page's news,
	// for a context the WorldsActor had not booked yet when asked.
	r.askContext(in, t.context)
}

// askContext asks the instance's WorldsActor, off the actor's goroutine,
// which world a browser context is.
func (r *run) askContext(in *inst, context string) {
	if context == "" || in.asked[context] {
		return
	}
	in.asked[context] = true
	ctx, wl, id, gen, a := r.ctx, in.Worlds, in.ID, in.session.Gen(), r.a
	r.helpers.Go(func() {
		world, _ := wl.OwnerOf(ctx, context)
		a.send(ctx, contextKnown{id: id, context: context, world: world, gen: gen})
	})
}

func (r *run) contextKnown(in *inst, m contextKnown) {
	r.a.spec.Log.Debug().Str("instance", in.ID).Str("context", m.context).Str("world", m.world).Int("generation", m.gen).Msg("recorder: a context's world")
	if in.session == nil || in.session.Gen() != m.gen {
		return
	}
	in.contexts[m.context] = m.world
	if m.world == "" {
		delete(in.asked, m.context) // the page's next news asks again
		return
	}
	for _, p := range in.pages {
		if p.context == m.context {
			p.world = m.world
			r.followPage(in, p)
		}
	}
}

// followPage attaches to a page of a recorded world, and leaves one whose
// world is no longer recorded.
func (r *run) followPage(in *inst, p *page) {
	want := p.world != "" && in.worlds[p.world] && r.isRecorded(p.world)
	switch {
	case want && p.session == "" && !p.attaching:
		if id, ok := in.session.Send("Target.attachToTarget", map[string]any{"targetId": p.id, "flatten": true}); ok {
			in.attach[id] = p.id
			p.attaching = true
		}
	case !want && p.session != "":
		in.session.Send("Target.detachFromTarget", map[string]any{"sessionId": p.session})
		delete(in.sessions, p.session)
		p.session, p.acks = "", nil
	}
}

func (r *run) answered(in *inst, a answerNews) {
	if target, ok := in.captures[a.id]; ok {
		delete(in.captures, a.id)
		r.captured(in, target, a)
		return
	}
	target, ok := in.attach[a.id]
	if !ok {
		return // a command whose answer says nothing the recorder needs
	}
	delete(in.attach, a.id)
	p := in.pages[target]
	if p != nil {
		p.attaching = false
	}
	switch {
	case a.err != "":
		return // the page went first
	case p == nil:
		in.session.Send("Target.detachFromTarget", map[string]any{"sessionId": a.session})
		return
	}
	// The page's level is kept from when it was last recorded, so a
	// recording switched off and on does not go down the levels again.
	p.session, p.small, p.settling = a.session, 0, 0
	in.sessions[a.session] = p
	r.a.spec.Log.Debug().Str("instance", in.ID).Str("world", p.world).Str("target", p.id).Msg("recorder: recording a page")
	for _, c := range pageSetup {
		in.session.SendTo(p.session, c.method, c.params)
	}
	in.session.SendTo(p.session, "Page.startScreencast", screencastParams(frameLevels[p.level]))
	if p.url != "" && r.isRecorded(p.world) {
		r.keep(p.world, kindNavigation, time.Now(), pwtrace.Navigation{Page: p.id, URL: p.url, Time: time.Now()}, nil)
	}
	// A page whose world stopped being recorded while it was attached.
	r.followPage(in, p)
}

// frame keeps a page's frame and schedules its acknowledgement.
func (r *run) frame(in *inst, p *page, m frameNews) {
	now := time.Now()
	if r.isRecorded(p.world) {
		m.frame.Page = p.id
		r.keepFrame(p.world, m.frame)
	}
	gap := min(time.Duration(float64(len(m.frame.JPEG))/frameBudget*float64(time.Second)), maxAckGap)
	due := p.lastDue.Add(gap)
	if due.Before(now) {
		due = now
	}
	p.lastDue = due
	p.acks = append(p.acks, pendingAck{id: m.ack, due: due})
	p.lastFrame, p.width, p.height, p.scrollX, p.scrollY = now, m.frame.Width, m.frame.Height, m.scrollX, m.scrollY
	p.owed = p.owed || due.After(now)
	r.adaptLevel(in, p, len(m.frame.JPEG))
	r.ackPage(in, p, now)
}

// ackDue acknowledges the frames whose time came, and captures the pages
// owed a last frame.
func (r *run) ackDue(in *inst, now time.Time) {
	if in.session == nil && !in.retry.IsZero() && now.After(in.retry) {
		in.retry = time.Time{}
		r.follow(in)
	}
	for _, p := range in.sessions {
		r.ackPage(in, p, now)
		if p.owed && !p.capturing && len(p.acks) == 0 && now.Sub(p.lastFrame) >= settle {
			r.capture(in, p)
		}
	}
}

// settle is how long a page whose frames were held back must be quiet
// before its last state is captured.
const settle = time.Second

// capture asks the browser for the page as it shows now: its last paint,
// which the screencast may have skipped while a frame waited for its
// acknowledgement. At most 1280 wide, and at the best level whatever the
// page's: one frame after a quiet second does not strain the budget.
func (r *run) capture(in *inst, p *page) {
	params := map[string]any{"format": "jpeg", "quality": frameLevels[0].quality, "optimizeForSpeed": true}
	if p.width > frameMax && p.height > 0 {
		params["clip"] = map[string]any{"x": p.scrollX, "y": p.scrollY, "width": p.width, "height": p.height, "scale": float64(frameMax) / float64(p.width)}
	}
	if id, ok := in.session.SendTo(p.session, "Page.captureScreenshot", params); ok {
		in.captures[id] = p.id
		p.owed, p.capturing = false, true
	}
}

// captured keeps a capture as the page's frame of the moment.
func (r *run) captured(in *inst, target string, a answerNews) {
	p := in.pages[target]
	if p == nil {
		return
	}
	p.capturing = false
	if a.err != "" || len(a.image) == 0 || p.session == "" || !r.isRecorded(p.world) {
		return
	}
	r.keepFrame(p.world, pwtrace.Frame{Page: p.id, JPEG: a.image, Time: time.Now(), Width: p.width, Height: p.height})
}

func (r *run) ackPage(in *inst, p *page, now time.Time) {
	for len(p.acks) > 0 && !p.acks[0].due.After(now) {
		in.session.SendTo(p.session, "Page.screencastFrameAck", map[string]any{"sessionId": p.acks[0].id})
		p.acks = p.acks[1:]
	}
}

func (r *run) pageNews(p *page, m pageNews) {
	if !r.isRecorded(p.world) {
		return
	}
	switch v := m.v.(type) {
	case pwtrace.Navigation:
		v.Page, p.url = p.id, v.URL
		r.keep(p.world, m.kind, v.Time, v, nil)
	case pwtrace.Console:
		v.Page = p.id
		r.keep(p.world, m.kind, v.Time, v, nil)
	case pwtrace.PageError:
		v.Page = p.id
		r.keep(p.world, m.kind, v.Time, v, nil)
	case downloads.Entry:
		v.Context = p.world
		r.download(note{world: p.world, kind: m.kind, at: time.Now()}, v)
	}
}

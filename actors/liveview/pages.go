package liveview

import (
	"encoding/json"
	"strings"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
)

// page is a page target of a running browser, while someone watches.
type page struct {
	id, title, url, context string
	session                 string // the live view's flat session on it; "": not attached yet
	cast                    castMode
	frame                   *frameNews // the last frame
}

// castMode is how a page's screencast runs.
type castMode int

const (
	castNone  castMode = iota
	castThumb          // small, for its thumbnail
	castLarge          // watched by someone: large (its frames are its thumbnail too)
)

// The screencasts' sizes and quality: a thumbnail is cheap; a watched page
// is as large as the page shows it at 1280×800.
var castParams = map[castMode]map[string]any{
	castThumb: {"format": "jpeg", "quality": 50, "maxWidth": 400, "maxHeight": 250},
	castLarge: {"format": "jpeg", "quality": 75, "maxWidth": 1280, "maxHeight": 800},
}

// pending is one of the live view's requests awaiting its answer.
type pending struct {
	attach string        // Target.attachToTarget of this target
	human  *humanRequest // the page's URL and title read for the answer to a human request
	answer HumanAnswer
	title  string // document.title read for this target
}

// What a session's reader makes of the browser's messages (off the actor's
// goroutine: a frame is decoded there).
type (
	targetNews struct {
		gen       int
		method    string // Target.targetCreated, targetInfoChanged, targetDestroyed
		id        string
		typ       string
		title     string
		url       string
		context   string
		attached  bool
		destroyed bool
	}
	detachedNews struct {
		gen     int
		session string
	}
	answerNews struct {
		gen     int
		id      int64
		session string // the attached session, for an attach
		value   json.RawMessage
		err     string
	}
	frameNews struct {
		gen     int
		session string
		ack     int
		data    string // base64 JPEG, as Chromium sends it
		width   float64
		height  float64 // the page's size in CSS pixels
		offset  float64 // the top of the page in the frame
	}
)

// sessionSpec reads what the live view's session hears.
func sessionSpec() cdpsession.Spec[feedNews] {
	return cdpsession.Spec[feedNews]{
		MaxMessage: 64 << 20, Queue: 256, Read: readSession,
		Opened: func(m cdpsession.Opened) feedNews { return sessionOpened(m) },
		Ended:  func(m cdpsession.Ended) feedNews { return sessionEnded(m) },
	}
}

func readSession(gen int, raw []byte) (feedNews, bool) {
	var m struct {
		ID        int64           `json:"id"`
		Method    string          `json:"method"`
		SessionID string          `json:"sessionId"`
		Params    json.RawMessage `json:"params"`
		Result    struct {
			SessionID string `json:"sessionId"`
			Result    struct {
				Value json.RawMessage `json:"value"`
			} `json:"result"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	if m.ID != 0 {
		a := answerNews{gen: gen, id: m.ID, session: m.Result.SessionID, value: m.Result.Result.Value}
		if m.Error != nil {
			a.err = m.Error.Message
		}
		return a, true
	}
	switch m.Method {
	case "Page.screencastFrame":
		var p struct {
			Data      string `json:"data"`
			SessionID int    `json:"sessionId"`
			Metadata  struct {
				OffsetTop    float64 `json:"offsetTop"`
				DeviceWidth  float64 `json:"deviceWidth"`
				DeviceHeight float64 `json:"deviceHeight"`
			} `json:"metadata"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return nil, false
		}
		return frameNews{gen: gen, session: m.SessionID, ack: p.SessionID, data: p.Data,
			width: p.Metadata.DeviceWidth, height: p.Metadata.DeviceHeight, offset: p.Metadata.OffsetTop}, true
	case "Target.targetCreated", "Target.targetInfoChanged", "Target.targetDestroyed":
		var p struct {
			TargetID   string `json:"targetId"`
			TargetInfo struct {
				TargetID         string `json:"targetId"`
				Type             string `json:"type"`
				Title            string `json:"title"`
				URL              string `json:"url"`
				BrowserContextID string `json:"browserContextId"`
			} `json:"targetInfo"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return nil, false
		}
		t := p.TargetInfo
		if m.Method == "Target.targetDestroyed" {
			return targetNews{gen: gen, method: m.Method, id: p.TargetID, destroyed: true}, true
		}
		return targetNews{gen: gen, method: m.Method, id: t.TargetID, typ: t.Type, title: t.Title, url: t.URL, context: t.BrowserContextID}, true
	case "Target.detachedFromTarget":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return nil, false
		}
		return detachedNews{gen: gen, session: p.SessionID}, true
	}
	return nil, false
}

// startSession opens the live view's CDP connection to an instance's
// browser: someone watches.
func (r *run) startSession(in *inst) {
	if in.session != nil || in.ep == nil {
		return
	}
	in.session = cdpsession.Start(*in.ep, in.news, sessionSpec())
}

// endSession closes it: its screencasts end with it.
func (r *run) endSession(in *inst) {
	if in.session == nil {
		return
	}
	in.session.Stop()
	in.session = nil
	for _, pend := range in.pending {
		if pend.human != nil {
			pend.human.reply <- humanReply{answer: pend.answer} // as the page was last seen
		}
	}
	for _, p := range in.pages {
		if p.cast != castNone {
			r.a.screencasts.Add(-1)
		}
	}
	clear(in.pages)
	clear(in.pending)
}

// sessionNews takes what the instance's session told; news of another
// session than the running one is stale.
func (r *run) sessionNews(in *inst, m feedNews) {
	s := in.session
	current := func(gen int) bool { return s != nil && s.Gen() == gen }
	switch m := m.(type) {
	case sessionOpened:
		if current(m.Gen) {
			s.Send("Target.setDiscoverTargets", map[string]any{"discover": true})
		}
	case sessionEnded:
		if current(m.Gen) {
			r.log.Debug().Err(m.Err).Msg("the live view's session ended")
			r.endSession(in)
			r.pushState()
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
		if current(m.gen) {
			for _, p := range in.pages {
				if p.session == m.session {
					r.uncast(p)
					p.session = ""
				}
			}
		}
	case frameNews:
		if current(m.gen) {
			r.frame(in, m)
		}
	default:
		actor.Unknown(r.log, r.a.String(), m)
	}
}

func (r *run) targetNews(in *inst, m targetNews) {
	if m.destroyed {
		if p := in.pages[m.id]; p != nil {
			r.uncast(p)
			delete(in.pages, m.id)
			r.pushState()
		}
		return
	}
	if m.typ != "page" {
		return // the browser's own UI targets, workers, iframes: not pages a human watches
	}
	p := in.pages[m.id]
	if p == nil {
		p = &page{id: m.id}
		in.pages[m.id] = p
		if id, ok := in.session.Send("Target.attachToTarget", map[string]any{"targetId": m.id, "flatten": true}); ok {
			in.pending[id] = pending{attach: m.id}
		}
	}
	p.title, p.url, p.context = m.title, m.url, m.context
	r.pushState()
}

func (r *run) answered(in *inst, m answerNews) {
	pend, ok := in.pending[m.id]
	if !ok {
		return
	}
	delete(in.pending, m.id)
	if pend.human != nil {
		var page struct{ URL, Title string }
		if json.Unmarshal(m.value, &page) == nil && m.err == "" {
			pend.answer.URL, pend.answer.Title = page.URL, page.Title
		}
		pend.human.reply <- humanReply{answer: pend.answer}
		return
	}
	if pend.title != "" {
		var title string
		if p := in.pages[pend.title]; p != nil && m.err == "" && json.Unmarshal(m.value, &title) == nil && title != "" && title != p.title {
			p.title = title
			r.pushState()
		}
		return
	}
	p := in.pages[pend.attach]
	if p == nil || m.err != "" || m.session == "" {
		return
	}
	p.session = m.session
	r.recast(in, p)
}

// recast starts, restarts or stops a page's screencast as its viewers want.
func (r *run) recast(in *inst, p *page) {
	want := castThumb
	for v := range r.viewers {
		if v.watching == (pageKey{in.ID, p.id}) {
			want = castLarge
		}
	}
	if p.session == "" || p.cast == want {
		return
	}
	if p.cast != castNone {
		in.session.SendTo(p.session, "Page.stopScreencast", nil)
	} else {
		r.a.screencasts.Add(1)
	}
	p.cast = want
	in.session.SendTo(p.session, "Page.startScreencast", castParams[want])
}

func (r *run) uncast(p *page) {
	if p.cast != castNone {
		p.cast = castNone
		r.a.screencasts.Add(-1)
	}
}

// frame acknowledges a frame at once (the next one may come) and hands it
// to every viewer: the thumbnail, and the large view of those watching.
func (r *run) frame(in *inst, m frameNews) {
	in.session.SendTo(m.session, "Page.screencastFrameAck", map[string]any{"sessionId": m.ack})
	for _, p := range in.pages {
		if p.session == m.session {
			f := m
			p.frame = &f
			r.pushFrame(in, p)
			return
		}
	}
}

// readTitles asks the pages whose target title is still Chromium's
// stand-in (their URL: a target's title can lag behind its document's)
// for their document's title.
func (r *run) readTitles(in *inst) {
	if in.session == nil {
		return
	}
	for _, p := range in.pages {
		if p.session == "" || !placeholderTitle(p) {
			continue
		}
		if id, ok := in.session.SendTo(p.session, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}); ok {
			in.pending[id] = pending{title: p.id}
		}
	}
}

func placeholderTitle(p *page) bool {
	if p.title == "" {
		return true
	}
	bare := strings.TrimPrefix(strings.TrimPrefix(p.url, "https://"), "http://")
	return p.title == p.url || p.title == bare || strings.HasPrefix(p.url, "data:")
}

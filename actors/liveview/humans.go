package liveview

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
)

// HumanRequest is an agent asking for a human (request_human).
type HumanRequest struct {
	Instance string // "": the default instance
	// World is the world the human is asked to look at; "": the most
	// recently active one (the human may choose another).
	World  string
	Reason string
}

// HumanAnswer is the human's answer: the note they typed, and the page of
// the world as it was when they pressed Done.
type HumanAnswer struct {
	Instance string `json:"instance"`
	World    string `json:"context"`
	Note     string `json:"note"`
	URL      string `json:"url"`
	Title    string `json:"title"`
}

// humanRequest is an open request; the actor owns it once asked.
type humanRequest struct {
	id     int
	req    HumanRequest
	chosen bool // the agent named the world
	asked  time.Time
	reply  chan humanReply // buffered
}

type humanReply struct {
	answer HumanAnswer
	err    error
}

// humanRequests are the open requests, by id; the actor's alone.
type humanRequests struct {
	next int
	open map[int]*humanRequest
}

func newHumanRequests() humanRequests { return humanRequests{open: map[int]*humanRequest{}} }

func (h *humanRequests) failAll(err error) {
	for id, q := range h.open {
		q.reply <- humanReply{err: err}
		delete(h.open, id)
	}
}

// RequestHuman shows the request on the page, marking its world, and
// waits until a human presses Done (their note, the page's URL and title)
// or ctx ends (ErrNoHuman).
func (a *Actor) RequestHuman(ctx context.Context, req HumanRequest) (HumanAnswer, error) {
	asked := time.Now()
	got, err := a.requestHuman(ctx, req)
	if on := a.spec.OnHuman; on != nil {
		world, answer := got.World, got.Note
		if world == "" {
			world = req.World
		}
		if err != nil {
			answer = "no answer: " + err.Error()
		}
		on(world, req.Reason, answer, asked, time.Now())
	}
	return got, err
}

func (a *Actor) requestHuman(ctx context.Context, req HumanRequest) (HumanAnswer, error) {
	q := &humanRequest{req: req, reply: make(chan humanReply, 1)}
	if err := actor.Send(ctx, a.mailbox, request(askHuman{q: q})); err != nil {
		return HumanAnswer{}, fmt.Errorf("%w: %w", ErrNoHuman, err)
	}
	select {
	case rep := <-q.reply:
		return rep.answer, rep.err
	case <-ctx.Done():
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = actor.Send(wctx, a.mailbox, request(gaveUp{q: q}))
		select {
		case rep := <-q.reply: // answered in the same instant
			if rep.err == nil {
				return rep.answer, nil
			}
		default:
		}
		return HumanAnswer{}, fmt.Errorf("%w: %w", ErrNoHuman, ctx.Err())
	}
}

func (r *run) askHuman(m askHuman) {
	q := m.q
	r.humans.next++
	q.id, q.asked = r.humans.next, time.Now()
	if q.req.Instance == "" && len(r.order) > 0 {
		q.req.Instance = r.order[0]
	}
	q.chosen = q.req.World != ""
	if !q.chosen {
		q.req.Instance, q.req.World = r.mostRecentlyActive(q.req.Instance)
	}
	r.humans.open[q.id] = q
	r.events.add(event{Instance: q.req.Instance, Kind: "human_asked", Text: fmt.Sprintf("an agent asks for a human in %s: %s", worldWords(q.req.World), q.req.Reason)})
	r.log.Info().Str("world", q.req.World).Str("reason", q.req.Reason).Msg("an agent asks for a human")
	r.pushState()
}

func (r *run) gaveUp(q *humanRequest) {
	if _, open := r.humans.open[q.id]; !open || q.id == 0 {
		return
	}
	delete(r.humans.open, q.id)
	r.events.add(event{Instance: q.req.Instance, Kind: "human_timed_out", Text: "no human answered in time: " + q.req.Reason})
	r.pushState()
}

// mostRecentlyActive is the world whose agents last sent input or
// navigation, else the newest world of the instance, else "" (its pages
// of no world).
func (r *run) mostRecentlyActive(instance string) (string, string) {
	var best holdKey
	var at int64
	for k, g := range r.gates {
		if t := g.acted.Load(); k.world != "" && t > at && r.instances[k.instance] != nil {
			best, at = k, t
		}
	}
	if at > 0 {
		return best.instance, best.world
	}
	if in := r.instances[instance]; in != nil && len(in.made) > 0 {
		return instance, in.made[len(in.made)-1]
	}
	return instance, ""
}

// answerHuman answers a request with the human's note and the world's page
// then, and hands the world back if this viewer held it.
func (r *run) answerHuman(v *viewer, id int, note string) {
	q := r.humans.open[id]
	if q == nil {
		v.sendError("that request is no longer open (the agent stopped waiting)")
		return
	}
	delete(r.humans.open, id)
	ans := HumanAnswer{Instance: q.req.Instance, World: q.req.World, Note: note}
	k := holdKey{q.req.Instance, q.req.World}
	if r.holders[k] == v {
		r.handBack(k)
	}
	if !r.readPageFor(q, ans, r.pageOfWorld(v, q.req.Instance, q.req.World)) {
		q.reply <- humanReply{answer: ans}
	}
	r.events.add(event{Instance: q.req.Instance, Kind: "human_answered", Text: "a human answered: " + q.req.Reason})
	r.pushState()
}

// assignHuman points a request the agent gave no world at another one.
func (r *run) assignHuman(v *viewer, id int, instance, world string) {
	q := r.humans.open[id]
	if q == nil || q.chosen {
		v.sendError("that request's world cannot be changed")
		return
	}
	if r.instances[instance] == nil {
		v.sendError("no such instance")
		return
	}
	q.req.Instance, q.req.World = instance, world
	r.pushState()
}

// pageOfWorld is the page the viewer watches if it is the world's, else
// the world's first.
func (r *run) pageOfWorld(v *viewer, instance, world string) *page {
	in := r.instances[instance]
	if in == nil {
		return nil
	}
	if p := in.pages[v.watching.page]; p != nil && v.watching.instance == instance && r.worldOf(in, p) == world {
		return p
	}
	var first *page
	for _, p := range in.pages {
		if r.worldOf(in, p) == world && (first == nil || p.id < first.id) {
			first = p
		}
	}
	return first
}

func worldWords(w string) string {
	if w == "" {
		return "the whole browser"
	}
	return "world " + w
}

// readPageFor asks the page for its URL and title (a target's title can
// lag behind its document's) and answers the request when they come;
// false: no page to ask, the answer is the caller's.
func (r *run) readPageFor(q *humanRequest, ans HumanAnswer, p *page) bool {
	if p == nil {
		return false
	}
	ans.URL, ans.Title = p.url, p.title
	in := r.instances[q.req.Instance]
	if in == nil || in.session == nil || p.session == "" {
		q.reply <- humanReply{answer: ans}
		return true
	}
	id, ok := in.session.SendTo(p.session, "Runtime.evaluate", map[string]any{
		"expression": "({URL: location.href, Title: document.title})", "returnByValue": true})
	if !ok {
		q.reply <- humanReply{answer: ans}
		return true
	}
	in.pending[id] = pending{human: q, answer: ans}
	return true
}

package liveview

import (
	"context"
	"slices"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/actors/downloads"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// inst is an instance as the actor keeps it.
type inst struct {
	Instance
	stop    context.CancelFunc // ends its feeder
	fed     chan struct{}      // closed when its feeder has ended
	news    chan feedNews      // what its CDP sessions tell, read by the feeder
	ep      *browser.Endpoint  // its running browser; nil: none
	session *cdpsession.Session[feedNews]
	pages   map[string]*page // by target id, while a session runs
	pending map[int64]pending
	made    []string // its worlds, in the order they were made (the last: the newest)
}

// instanceFacts are what a gathering read of an instance.
type instanceFacts struct {
	status    browser.Status
	worlds    []worlds.Summary
	downloads []downloads.Entry
	commands  map[string]string // wrap --isolate's command, by world
}

func (r *run) watch(spec Instance) {
	if _, ok := r.instances[spec.ID]; ok {
		return
	}
	ctx, stop := context.WithCancel(r.ctx)
	in := &inst{Instance: spec, stop: stop, fed: make(chan struct{}), news: make(chan feedNews, 64), pages: map[string]*page{}, pending: map[int64]pending{}}
	r.instances[spec.ID] = in
	if spec.Default {
		r.order = append([]string{spec.ID}, r.order...)
	} else {
		r.order = append(r.order, spec.ID)
	}
	go r.a.feed(ctx, in.Instance, in.news, in.fed)
}

func (r *run) forget(id string) {
	in := r.instances[id]
	if in == nil {
		return
	}
	r.stopInstance(in)
	delete(r.instances, id)
	r.order = slices.DeleteFunc(r.order, func(s string) bool { return s == id })
	for k, g := range r.gates {
		if k.instance == id {
			g.handBack()
			delete(r.gates, k)
			delete(r.holders, k)
		}
	}
	r.pushState()
}

func (r *run) stopInstance(in *inst) {
	r.endSession(in)
	in.stop()
	<-in.fed
}

// feedNews is what an instance's feeder hands the actor (fromInstance): a
// closed set, the types below and no others, each with its case in
// instanceNews or sessionNews.
type feedNews interface{ isLiveViewFeedNews() }

// What the feeder hands over besides what the sessions read (pages.go).
type (
	fromBrowser   struct{ ev browser.Event }
	fromWorlds    struct{ news worlds.News }
	sessionOpened cdpsession.Opened
	sessionEnded  cdpsession.Ended
)

func (fromBrowser) isLiveViewFeedNews()   {}
func (fromWorlds) isLiveViewFeedNews()    {}
func (worldsOpen) isLiveViewFeedNews()    {}
func (sessionOpened) isLiveViewFeedNews() {}
func (sessionEnded) isLiveViewFeedNews()  {}
func (targetNews) isLiveViewFeedNews()    {}
func (detachedNews) isLiveViewFeedNews()  {}
func (answerNews) isLiveViewFeedNews()    {}
func (frameNews) isLiveViewFeedNews()     {}

// feed hands the actor what an instance tells: its browser's events, its
// worlds made and closed, and what its CDP sessions read. It ends with ctx.
func (a *Actor) feed(ctx context.Context, spec Instance, sessions <-chan feedNews, done chan struct{}) {
	defer close(done)
	tell := func(m feedNews) bool {
		select {
		case a.mailbox <- fromInstance{id: spec.ID, msg: m}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	events := make(chan browser.Event, 16)
	if unsubscribe, err := spec.Browser.Subscribe(ctx, events, browser.Lossy); err == nil {
		defer unsubscribe()
	}
	var worldNews chan worlds.News // nil: none come
	if spec.Worlds != nil {
		worldNews = make(chan worlds.News, 16)
		open, err := spec.Worlds.Follow(ctx, worldNews)
		if err != nil {
			worldNews = nil
		}
		if !tell(worldsOpen(open)) {
			return
		}
	}
	for {
		var m feedNews
		select {
		case <-ctx.Done():
			return
		case ev := <-events:
			m = fromBrowser{ev}
		case n := <-worldNews:
			m = fromWorlds{n}
		case s := <-sessions:
			m = s
		}
		if !tell(m) {
			return
		}
	}
}

// worldsOpen are the worlds open when the live view began to follow them.
type worldsOpen []string

// instanceNews is what an instance's feeder handed over.
func (r *run) instanceNews(in *inst, m feedNews) {
	switch m := m.(type) {
	case fromBrowser:
		r.browserNews(in, m.ev)
	case worldsOpen:
		in.made = append(in.made, m...)
	case fromWorlds:
		r.worldNews(in, m.news)
	default: // the sessions' news; sessionNews fails on an unknown one
		r.sessionNews(in, m)
	}
}

func (r *run) browserNews(in *inst, ev browser.Event) {
	if e, ok := browserEvent(ev); ok {
		r.events.add(e)
	}
	switch ev := ev.(type) {
	case browser.Ready:
		ep := ev.Endpoint
		in.ep = &ep
		r.endSession(in)
		if len(r.viewers) > 0 {
			r.startSession(in)
		}
	case browser.Exited:
		if in.ep != nil && in.ep.Generation == ev.Generation {
			in.ep = nil
			r.endSession(in)
		}
	}
	r.pushState()
}

func (r *run) worldNews(in *inst, n worlds.News) {
	in.made = slices.DeleteFunc(in.made, func(s string) bool { return s == n.Name })
	kind, text := "world_closed", "world "+n.Name+" closed"
	if n.Open {
		in.made = append(in.made, n.Name)
		kind, text = "world_opened", "world "+n.Name+" opened"
	} else if g := r.gates[holdKey{in.ID, n.Name}]; g != nil {
		g.handBack() // its relays are gone
		delete(r.holders, holdKey{in.ID, n.Name})
	}
	r.events.add(event{Instance: in.ID, Kind: kind, Text: text})
	r.pushState()
}

// gather reads the facts of every instance off the actor's goroutine and
// hands them back (gathered).
func (r *run) gather() {
	if r.gathering {
		return
	}
	r.gathering = true
	specs := make([]Instance, 0, len(r.order))
	for _, id := range r.order {
		specs = append(specs, r.instances[id].Instance)
	}
	ctx := r.ctx
	r.helpers.Go(func() {
		facts := make(map[string]instanceFacts, len(specs))
		for _, s := range specs {
			var f instanceFacts
			f.status, _ = s.Browser.Status(ctx)
			if s.Worlds != nil {
				f.worlds, _ = s.Worlds.List(ctx)
			}
			if s.Downloads != nil {
				f.downloads, _ = s.Downloads.List(ctx)
			}
			if s.Command != nil {
				f.commands = map[string]string{}
				for _, w := range f.worlds {
					if c := s.Command(w.Name); c != "" {
						f.commands[w.Name] = c
					}
				}
			}
			facts[s.ID] = f
		}
		select {
		case r.a.mailbox <- gathered{facts: facts}:
		case <-ctx.Done():
		}
	})
}

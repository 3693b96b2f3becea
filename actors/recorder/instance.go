package recorder

import (
	"context"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/browser"
	"github.com/cdpvisor/cdpvisor/actors/cdpsession"
	"github.com/cdpvisor/cdpvisor/actors/plug"
	"github.com/cdpvisor/cdpvisor/actors/recorder/pwtrace"
	"github.com/cdpvisor/cdpvisor/actors/worlds"
)

// inst is an instance as the recorder follows it.
type inst struct {
	plug.Instance
	stop    context.CancelFunc
	fed     chan struct{} // closed when its feeder has ended
	news    chan feedNews // what its session tells, read by the feeder
	ep      *browser.Endpoint
	session *cdpsession.Session[feedNews]
	worlds  map[string]bool // its open worlds
	// contexts are the worlds of the browser contexts seen in the
	// session's generation ("": none); asked are those being asked.
	contexts map[string]string
	asked    map[string]bool
	pages    map[string]*page // every page of its browser, by target id
	sessions map[string]*page // the attached ones, by session id
	attach   map[int64]string // an attach's command id: its target
	captures map[int64]string // a capture's command id: its target
	crashed  bool             // its browser exited unplanned: the next Ready is a relaunch
	retry    time.Time        // when to open a session that ended while the browser runs; zero: not owed
}

// feedNews is what an instance's feeder hands the actor: a closed set.
type feedNews interface{ isRecorderFeedNews() }

type (
	fromBrowser   struct{ ev browser.Event }
	fromWorlds    struct{ news worlds.News }
	worldsOpen    []string
	sessionOpened cdpsession.Opened
	sessionEnded  cdpsession.Ended
)

func (fromBrowser) isRecorderFeedNews()   {}
func (fromWorlds) isRecorderFeedNews()    {}
func (worldsOpen) isRecorderFeedNews()    {}
func (sessionOpened) isRecorderFeedNews() {}
func (sessionEnded) isRecorderFeedNews()  {}

func (r *run) watch(spec plug.Instance) {
	if _, ok := r.instances[spec.ID]; ok || spec.Worlds == nil {
		return // a Firefox instance has no worlds to record
	}
	ctx, stop := context.WithCancel(r.ctx)
	in := &inst{Instance: spec, stop: stop, fed: make(chan struct{}), news: make(chan feedNews, 256),
		worlds: map[string]bool{}, contexts: map[string]string{}, asked: map[string]bool{},
		pages: map[string]*page{}, sessions: map[string]*page{}, attach: map[int64]string{}, captures: map[int64]string{}}
	r.instances[spec.ID] = in
	go r.a.feed(ctx, spec, in.news, in.fed) // its first news: a Ready for a browser already running
}

func (r *run) forget(id string) {
	in := r.instances[id]
	if in == nil {
		return
	}
	r.stopInstance(in)
	delete(r.instances, id)
	for w := range in.worlds {
		r.worldClosed(w)
	}
	r.recount()
}

func (r *run) stopInstance(in *inst) {
	r.endSession(in)
	in.stop()
	<-in.fed
}

// feed hands the actor what an instance tells: its browser's events, its
// worlds made and closed, and what its session reads. It ends with ctx.
func (a *Actor) feed(ctx context.Context, spec plug.Instance, sessions <-chan feedNews, done chan struct{}) {
	defer close(done)
	tell := func(m feedNews) bool { return a.send(ctx, fromInstance{id: spec.ID, msg: m}) }
	events := make(chan browser.Event, 16)
	if unsubscribe, err := spec.Browser.Subscribe(ctx, events, browser.Lossy); err == nil {
		defer unsubscribe()
	}
	worldNews := make(chan worlds.News, 16)
	open, err := spec.Worlds.Follow(ctx, worldNews)
	if err != nil {
		return // ending
	}
	if !tell(worldsOpen(open)) {
		return
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

func (r *run) instanceNews(in *inst, m feedNews) {
	switch m := m.(type) {
	case fromBrowser:
		r.browserNews(in, m.ev)
	case worldsOpen:
		for _, w := range m {
			in.worlds[w] = true
		}
		r.recount()
	case fromWorlds:
		if m.news.Open {
			in.worlds[m.news.Name] = true
		} else {
			delete(in.worlds, m.news.Name)
			r.worldClosed(m.news.Name)
		}
		r.recount()
	default:
		r.sessionNews(in, m)
	}
}

// browserNews follows the instance's browser: a session on each new one,
// the crash and the relaunch marked in every recorded world.
func (r *run) browserNews(in *inst, ev browser.Event) {
	switch ev := ev.(type) {
	case browser.Ready:
		ep := ev.Endpoint
		in.ep = &ep
		r.endSession(in)
		if in.crashed {
			in.crashed = false
			r.markAll(in, pwtrace.Mark{Kind: "relaunch", Title: "the browser was relaunched (generation {generation})",
				Params: map[string]string{"generation": itoa(ep.Generation)}, Start: time.Now()})
		}
		r.follow(in)
	case browser.Exited:
		if in.ep != nil && in.ep.Generation == ev.Generation {
			in.ep, in.retry = nil, time.Time{}
			r.endSession(in)
			if !ev.Planned {
				in.crashed = true
				r.markAll(in, pwtrace.Mark{Kind: "crash", Title: "the browser exited ({why}): its pages are gone",
					Params: map[string]string{"why": exitWords(ev)}, Start: time.Now()})
			}
		}
	}
}

// markAll keeps a mark in each recorded world of the instance.
func (r *run) markAll(in *inst, m pwtrace.Mark) {
	for w := range in.worlds {
		if r.isRecorded(w) {
			r.keep(w, kindMark, m.Start, m, nil)
		}
	}
}

// follow starts the instance's session when one of its open worlds is
// recorded and a browser runs, ends it when none is, and has it attach to
// the recorded worlds' pages and leave the others'.
func (r *run) follow(in *inst) {
	want := false
	for w := range in.worlds {
		if r.isRecorded(w) {
			want = true
			break
		}
	}
	r.a.spec.Log.Debug().Str("instance", in.ID).Bool("want", want).Bool("session", in.session != nil).Bool("browser", in.ep != nil).Int("worlds", len(in.worlds)).Msg("recorder: follow")
	switch {
	case want && in.session == nil && in.ep != nil:
		r.startSession(in)
	case !want && in.session != nil:
		r.endSession(in)
	case in.session != nil:
		for _, p := range in.pages {
			r.followPage(in, p)
		}
	}
}

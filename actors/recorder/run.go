package recorder

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/cdpvisor/cdpvisor/actors/actor"
	"github.com/cdpvisor/cdpvisor/actors/recorder/store"
)

// run is the state of one Serve: the actor's alone.
type run struct {
	ctx       context.Context
	a         *Actor
	st        *store.Store
	instances map[string]*inst
	// passing are the switches of worlds whose names never come back,
	// kept here only (a named world's are kept in the store).
	passing map[string]bool
	// switched are the worlds a request switched since Serve began.
	switched map[string]bool
	counts   map[string]*counts // by world, since Serve began
	total    counts             // of every world, since Serve began
	dropped  int64              // bytes the caps dropped of worlds since deleted
	written  map[string]bool    // worlds written since the last flush
	// downloads are the downloads under way, by id; downloaded the ids
	// of those kept.
	downloads  map[string]beganDownload
	downloaded map[string]bool
	flushed    time.Time
	helpers    sync.WaitGroup // goroutines asking the worlds actors
}

// counts are what a world's recording received and kept.
type counts struct {
	framesReceived, framesWritten int64
	failed                        int64 // records the store refused
}

func newRun(ctx context.Context, a *Actor, st *store.Store) *run {
	return &run{ctx: ctx, a: a, st: st, instances: map[string]*inst{}, passing: map[string]bool{}, switched: map[string]bool{},
		counts: map[string]*counts{}, written: map[string]bool{}, downloads: map[string]beganDownload{}, downloaded: map[string]bool{}, flushed: time.Now()}
}

// stop ends every instance's sessions and feeders and closes the store.
func (r *run) stop() {
	for _, in := range r.instances {
		r.stopInstance(in)
	}
	r.helpers.Wait()
	if err := r.st.Close(); err != nil {
		r.a.spec.Log.Warn().Err(err).Msg("the recordings' last writes failed")
	}
}

func (r *run) handle(m request) {
	switch m := m.(type) {
	case instanceMade:
		r.watch(m.inst)
	case instanceClosed:
		r.forget(m.id)
	case fromInstance:
		if in := r.instances[m.id]; in != nil {
			r.instanceNews(in, m.msg)
		}
	case contextKnown:
		if in := r.instances[m.id]; in != nil {
			r.contextKnown(in, m)
		}
	case switchAsked:
		m.reply <- r.setSwitch(m.world, m.on)
	case worldEnded:
		if m.forgotten {
			r.deleteRecording(m.world, "its world was forgotten")
		}
		close(m.reply)
	case readable:
		r.drainNotes() // what was noted before the ask is in what it reads
		r.flush(m.world)
		m.reply <- readableAnswer{has: r.st.Size(m.world) > 0}
	case statusAsked:
		m.reply <- r.status(m.world)
	case totalsAsked:
		m.reply <- r.totals()
	default:
		actor.Unknown(r.a.spec.Log, "recorder", m)
	}
}

// isRecorded says a world is recorded: its switch if it has one, else
// what the coordinator says of all worlds.
func (r *run) isRecorded(world string) bool {
	if on, ok := r.passing[world]; ok {
		return on
	}
	if on, set := r.st.Switch(world); set {
		return on
	}
	return r.a.spec.All
}

func (r *run) setSwitch(world string, on bool) error {
	if r.a.spec.Passing(world) {
		r.passing[world] = on
	} else if err := r.st.SetSwitch(world, on); err != nil {
		return err
	}
	r.switched[world] = true
	r.a.spec.Log.Info().Str("world", world).Bool("record", on).Msg("a world's recording switched")
	r.recount()
	return nil
}

// recount publishes which open worlds are recorded, and has each
// instance attach to, or leave, their pages.
func (r *run) recount() {
	now := map[string]bool{}
	for w := range r.switched {
		if r.isRecorded(w) {
			now[w] = true // its world's news may come after the request that switched it
		}
	}
	for _, in := range r.instances {
		for w := range in.worlds {
			if r.isRecorded(w) {
				now[w] = true
			}
		}
	}
	if !maps.Equal(now, *r.a.recorded.Load()) {
		r.a.recorded.Store(&now)
	}
	for _, in := range r.instances {
		r.follow(in)
	}
}

// worldClosed: no instance has the world open any more. A passing world's
// recording goes with it, unless the coordinator keeps them.
func (r *run) worldClosed(world string) {
	for _, in := range r.instances {
		if in.worlds[world] {
			return
		}
	}
	if err := r.st.CloseWorld(world); err != nil {
		r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("the world's recording could not be closed")
	}
	if r.a.spec.Passing(world) {
		delete(r.passing, world)
		if !r.a.spec.Keep {
			r.deleteRecording(world, "its fresh world closed (serve --keep-recordings keeps them)")
		}
	}
}

func (r *run) deleteRecording(world, why string) {
	size, dropped := r.st.Size(world), r.st.Dropped(world)
	if err := r.st.Delete(world); err != nil {
		r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("the world's recording could not be deleted")
		return
	}
	r.dropped += dropped
	delete(r.counts, world)
	delete(r.written, world)
	delete(r.switched, world)
	delete(r.passing, world)
	if size > 0 {
		r.a.spec.Log.Info().Str("world", world).Int64("bytes", size).Msg("deleted the world's recording: " + why)
	}
	r.recount()
}

// tick acknowledges the frames whose time came, and flushes what was
// written once a second.
func (r *run) tick(now time.Time) {
	for _, in := range r.instances {
		r.ackDue(in, now)
	}
	if now.Sub(r.flushed) >= flushEvery {
		for w := range r.written {
			r.flush(w)
		}
		r.flushed = now
	}
}

// drainNotes takes the notes waiting now.
func (r *run) drainNotes() {
	for {
		select {
		case n := <-r.a.notes:
			r.note(n)
		default:
			return
		}
	}
}

func (r *run) flush(world string) {
	if !r.written[world] {
		return
	}
	delete(r.written, world)
	if err := r.st.Flush(world); err != nil {
		r.a.spec.Log.Warn().Err(err).Str("world", world).Msg("the world's recording could not be written")
	}
}

func (r *run) countsOf(world string) *counts {
	c := r.counts[world]
	if c == nil {
		c = &counts{}
		r.counts[world] = c
	}
	return c
}
